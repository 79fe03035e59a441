#!/usr/bin/env bash
# serve_live_load.sh <referee> <serve_live_load> [serve_live_load options...]
# Starts `referee serve` on a free loopback port, with room for the load's
# games and streams from one address (every client here is 127.0.0.1), runs
# the live-update load test against it (tests/support/serve_live_load.cpp,
# given the server's pid for its memory), checks the server is still
# running, and stops it.
set -euo pipefail
referee="$1"; load="$2"; shift 2
out=$(mktemp); trap 'kill "$pid" 2>/dev/null || true; rm -f "$out"' EXIT
"$referee" serve --port 0 --data :memory: --max-games 1000 --max-games-per-client 1000 --max-streams-per-client 1000 \
  >"$out" 2>&1 & pid=$!
for _ in $(seq 100); do grep -q "http://" "$out" && break; sleep 0.1; done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$out")
[[ -n "$port" ]] || { echo "referee serve did not start:"; cat "$out"; exit 1; }
"$load" "$port" --pid "$pid" "$@"
kill -0 "$pid"  # still running after the load
