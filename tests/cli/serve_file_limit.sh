#!/usr/bin/env bash
# `referee serve` under a file size limit (`ulimit -f`): a write past it is an
# error the store reports, 503 naming `data`, and the server goes on serving.
# It used to be killed by SIGXFSZ (exit 153) at the first game past the limit.
# Usage: serve_file_limit.sh <path-to-referee> <repo-root>
set -uo pipefail
ref="$1"
tmp="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 128 KiB: the store opens (some 40 KiB) and keeps a game or two (some 36 KiB
# each in its write-ahead log) before a write passes the limit.
(
  ulimit -f 128
  exec "$ref" serve --port 0 --data "$tmp/data"
) >"$tmp/out" 2>"$tmp/err" &
pid=$!
port=""
for _ in $(seq 1 200); do  # at most 20 s to start
  port=$(sed -n 's|^referee: the web board is at http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$tmp/out")
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "FAIL: the server did not start: $(head -c 300 "$tmp/err")"
  exit 1
fi

# request METHOD PATH [BODY]: the whole answer in $tmp/answer (bash's
# /dev/tcp: a fresh Debian has no HTTP client). The server closes after it.
request() {
  local body=${3-}
  : >"$tmp/answer"
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf '%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s' \
    "$1" "$2" "${#body}" "$body" >&3
  timeout 20 cat <&3 >"$tmp/answer"
  exec 3<&-
}
status() { head -c 12 "$tmp/answer" | sed -n 's|^HTTP/1\.1 \([0-9]*\)$|\1|p'; }

refused=""
for _ in $(seq 1 20); do
  request POST /api/games '{}' 2>/dev/null
  got=$(status)
  if [ "$got" = 503 ]; then
    refused=yes
    break
  fi
  [ "$got" = 201 ] || break
done
if [ -z "$refused" ]; then
  fail "no game was refused for want of room: last answer '$(head -c 300 "$tmp/answer")'"
else
  grep -qF '"field":"data"' "$tmp/answer" || fail "the 503 does not name data: $(head -c 300 "$tmp/answer")"
fi
if ! kill -0 "$pid" 2>/dev/null; then
  wait "$pid"
  fail "the server died (exit $?) at a write past the file size limit: $(head -c 300 "$tmp/err")"
  pid=""
else
  request GET /api/battles 2>/dev/null
  [ "$(status)" = 200 ] || fail "the server does not answer after the refused write: $(head -c 300 "$tmp/answer")"
  kill -TERM "$pid"
  wait "$pid"
  rc=$?
  pid=""
  [ "$rc" -eq 0 ] || fail "the server exited $rc when stopped, expected 0: $(head -c 300 "$tmp/err")"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "serve_file_limit: all passed"
