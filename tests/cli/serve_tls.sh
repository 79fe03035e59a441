#!/usr/bin/env bash
# `referee serve --tls-cert/--tls-key`: files that cannot be used are refused
# before anything listens (exit 2, naming the option and the file), FIFOs and
# devices among them, the two options go together, and good files serve https://.
# Usage: serve_tls.sh <path-to-referee> <repo-root>
set -uo pipefail
ref="$1"
root="$2"
data="$root/tests/server/data"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE NAME -- serve options...: stdout in $tmp/out, stderr in $tmp/err.
expect() {
  local want=$1 name=$2
  shift 3
  timeout 60 "$ref" serve --port 0 --data :memory: --stop-after 0.2 "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "$name: exit $got, expected $want: $(head -c 300 "$tmp/err")"
}
err_has() { grep -qF -- "$1" "$tmp/err" || fail "$2: stderr lacks '$1': $(head -c 300 "$tmp/err")"; }
out_lacks_board() { ! grep -q "web board is at" "$tmp/out" || fail "$1: it started serving"; }

expect 2 "a missing certificate" -- --tls-cert "$tmp/missing.pem" --tls-key x
err_has "--tls-cert: $tmp/missing.pem: cannot open the file: No such file or directory" "a missing certificate"
out_lacks_board "a missing certificate"

expect 2 "a missing key" -- --tls-cert "$data/tls-test-cert.pem" --tls-key "$tmp/missing-key.pem"
err_has "--tls-key: $tmp/missing-key.pem: cannot open the file" "a missing key"

printf 'not a certificate\n' >"$tmp/bad.pem"
expect 2 "a certificate that is not PEM" -- --tls-cert "$tmp/bad.pem" --tls-key "$data/tls-test-key.pem"
err_has "--tls-cert: $tmp/bad.pem is not a PEM certificate" "a certificate that is not PEM"

expect 2 "a key that is not the certificate's" -- --tls-cert "$data/tls-test-cert.pem" --tls-key "$data/tls-other-key.pem"
err_has "--tls-key: $data/tls-other-key.pem is not the key of the certificate" "a key that is not the certificate's"

cp "$data/tls-test-key.pem" "$tmp/unreadable.pem"
chmod 000 "$tmp/unreadable.pem"
if ! cat "$tmp/unreadable.pem" >/dev/null 2>&1; then  # root reads it anyway
  expect 2 "an unreadable key" -- --tls-cert "$data/tls-test-cert.pem" --tls-key "$tmp/unreadable.pem"
  err_has "--tls-key: $tmp/unreadable.pem: cannot open the file: Permission denied" "an unreadable key"
fi

# A FIFO or a device is refused by name, never opened to wait for a writer
# (the server used to hang there, silently); `timeout` in expect() bounds a
# server that still would.
mkfifo "$tmp/fifo.pem"
expect 2 "a FIFO for a certificate" -- --tls-cert "$tmp/fifo.pem" --tls-key "$data/tls-test-key.pem"
err_has "--tls-cert: $tmp/fifo.pem: is a pipe; only regular files are read" "a FIFO for a certificate"
out_lacks_board "a FIFO for a certificate"
expect 2 "a FIFO for a key" -- --tls-cert "$data/tls-test-cert.pem" --tls-key "$tmp/fifo.pem"
err_has "--tls-key: $tmp/fifo.pem: is a pipe; only regular files are read" "a FIFO for a key"
expect 2 "a device for a key" -- --tls-cert "$data/tls-test-cert.pem" --tls-key /dev/zero
err_has "--tls-key: /dev/zero: is a device; only regular files are read" "a device for a key"

expect 2 "a certificate without its key" -- --tls-cert "$data/tls-test-cert.pem"
err_has "--tls-cert requires --tls-key" "a certificate without its key"
expect 2 "a key without its certificate" -- --tls-key "$data/tls-test-key.pem"
err_has "--tls-key requires --tls-cert" "a key without its certificate"

expect 0 "the test certificate" -- --tls-cert "$data/tls-test-cert.pem" --tls-key "$data/tls-test-key.pem"
grep -q "^referee: the web board is at https://127.0.0.1:[0-9]*/ " "$tmp/out" ||
  fail "the test certificate: no https:// address: $(head -c 300 "$tmp/out")"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "serve_tls: all passed"
