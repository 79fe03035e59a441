#!/usr/bin/env bash
# Starts `referee serve` on a free loopback port, sends it 1,000 concurrent
# move checks from another process (serve_load), and stops it.
set -euo pipefail
referee="$1"; load="$2"
out=$(mktemp); trap 'kill "$pid" 2>/dev/null || true; rm -f "$out"' EXIT
"$referee" serve --port 0 >"$out" 2>&1 & pid=$!
for _ in $(seq 100); do grep -q "http://" "$out" && break; sleep 0.1; done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$out")
[[ -n "$port" ]] || { echo "referee serve did not start:"; cat "$out"; exit 1; }
"$load" "$port" 1000
kill -0 "$pid"  # still running after the load
