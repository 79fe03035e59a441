#!/usr/bin/env bash
# serve_probe.sh <referee> <serve_probe> [slow seconds]: starts `referee serve`
# on a free loopback port, runs the hostile-client probes against it
# (serve_probe), checks it is still running, and stops it.
set -euo pipefail
referee="$1"; probe="$2"; slow="${3:-25}"
out=$(mktemp); trap 'kill "$pid" 2>/dev/null || true; rm -f "$out"' EXIT
# Many new games from one address, on purpose: the per-address bucket of new
# games (tests/server/client_share_test.cpp) would refuse them.
"$referee" serve --port 0 --data :memory: --new-games-per-client 100000 >"$out" 2>&1 & pid=$!
for _ in $(seq 100); do grep -q "http://" "$out" && break; sleep 0.1; done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$out")
[[ -n "$port" ]] || { echo "referee serve did not start:"; cat "$out"; exit 1; }
"$probe" "$port" "$pid" "$slow"
kill -0 "$pid"  # still running after the probes
