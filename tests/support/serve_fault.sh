#!/usr/bin/env bash
# serve_fault.sh <referee> <serve_fault>
# kill -9 of `referee serve` in the middle of games (tests/support/serve_fault.cpp):
#   1. a game, one action answered, the server killed; restarted on the same
#      port and data directory, the action is there and the game goes on;
#   2. a game with two clients racing through a burst of actions, the server
#      killed while they send; restarted, the stored log has every answered
#      entry as told, nothing twice, at most one more per client, and both
#      games go on;
#   3. no seat token is in anything the server printed.
set -euo pipefail
referee="$1"; tool="$2"
dir=$(mktemp -d); pid=
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
state="$dir/state.json"; port=0; life=0

# Starts the server on $port (0: a free one) over $dir/data, its output in
# $dir/out.N and $dir/err.N.
start() {
  life=$((life + 1))
  "$referee" serve --port "$port" --data "$dir/data" >"$dir/out.$life" 2>"$dir/err.$life" & pid=$!
  for _ in $(seq 100); do grep -q "http://" "$dir/out.$life" && break; sleep 0.1; done
  port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/out.$life")
  [[ -n "$port" ]] || { echo "referee serve did not start:"; cat "$dir/out.$life" "$dir/err.$life"; exit 1; }
}
# Waits for the server killed by the tool; it must have died of SIGKILL.
killed() {
  local rc=0
  { wait "$pid"; } 2>/dev/null || rc=$?
  pid=
  [[ $rc -eq 137 ]] || { echo "referee serve ended with $rc, not by kill -9"; exit 1; }
}

start
{ "$tool" single "$port" "$pid" "$state" 2>&3; } 3>&2 2>/dev/null
killed
start
"$tool" check "$port" "$state"
# (bash's note that the server was killed goes to /dev/null, the tool's own
# messages to stderr.)
{ "$tool" burst "$port" "$pid" "$state" 40 2>&3; } 3>&2 2>/dev/null
killed
start
"$tool" check "$port" "$state"
kill "$pid"; wait "$pid" || true; pid=
"$tool" leaks "$state" "$dir"/out.* "$dir"/err.*
