#!/usr/bin/env bash
# serve_probe.sh <referee> <serve_probe> [slow seconds] [probes [data]]: starts
# `referee serve` on a free loopback port, runs the hostile-client probes
# against it (serve_probe: every one, or those named, "reloads,uploads"),
# checks it is still running, and stops it. With `data` "dir" the server
# keeps its games in a temporary directory (the reloads probe needs one),
# else in memory.
set -euo pipefail
referee="$1"; probe="$2"; slow="${3:-25}"; only="${4:-}"; data=:memory:
out=$(mktemp); dir=$(mktemp -d); trap 'kill "$pid" 2>/dev/null || true; rm -rf "$out" "$dir"' EXIT
[[ "${5:-}" == dir ]] && data="$dir/data"
# Many new games from one address, on purpose: the per-address bucket of new
# games (tests/server/client_share_test.cpp) would refuse them.
"$referee" serve --port 0 --data "$data" --new-games-per-client 100000 >"$out" 2>&1 & pid=$!
for _ in $(seq 100); do grep -q "http://" "$out" && break; sleep 0.1; done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$out")
[[ -n "$port" ]] || { echo "referee serve did not start:"; cat "$out"; exit 1; }
"$probe" "$port" "$pid" "$slow" $only
kill -0 "$pid"  # still running after the probes
