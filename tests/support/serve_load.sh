#!/usr/bin/env bash
# serve_load.sh <referee> <serve_load> [requests] [check|create] [serve options...]
# Starts `referee serve` on a free loopback port (with the given options),
# sends it the requests from another process (serve_load: 1,000 concurrent
# move checks by default), checks it is still running, and stops it.
set -euo pipefail
referee="$1"; load="$2"; requests="${3:-1000}"; mode="${4:-check}"
shift $(( $# < 4 ? $# : 4 ))
out=$(mktemp); trap 'kill "$pid" 2>/dev/null || true; rm -f "$out"' EXIT
"$referee" serve --port 0 --data :memory: "$@" >"$out" 2>&1 & pid=$!
for _ in $(seq 100); do grep -q "http://" "$out" && break; sleep 0.1; done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$out")
[[ -n "$port" ]] || { echo "referee serve did not start:"; cat "$out"; exit 1; }
"$load" "$port" "$requests" "$mode"
kill -0 "$pid"  # still running after the load
