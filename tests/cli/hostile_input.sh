#!/usr/bin/env bash
# Hostile input through the real command line (docs/input-limits.md): deep
# nesting, odd input files, outputs that must not be half-written or written
# through a link or onto a device, write errors, NaN, bad seeds, control
# characters in ids, and errors that name the file. Every refusal is exit 2
# with nothing written; a failed write to standard output is exit 1.
# Usage: hostile_input.sh <path-to-referee> <repo-root>
set -uo pipefail
ref="$1"
root="$2"
wm="$root/scenarios/warmaster"
anc="$root/scenarios/ancients/centre_clash.json"
town="$root/scenarios/blightmeer/town.json"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE NAME -- command...: runs it with stdout in $tmp/out, stderr in $tmp/err.
expect() {
  local want=$1 name=$2
  shift 3
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "$name: exit $got, expected $want: $(head -c 300 "$tmp/err")"
}
err_has() { grep -qF -- "$1" "$tmp/err" || fail "$2: stderr lacks '$1': $(head -c 300 "$tmp/err")"; }
absent() { [ ! -e "$1" ] || fail "$2: $1 was written"; }
# n opening then n closing brackets
nested() { local o c; o=$(printf '%*s' "$1" '' | tr ' ' '['); c=$(printf '%*s' "$1" '' | tr ' ' ']'); printf '%s%s' "$o" "$c"; }

# --- 1. nesting deeper than the limit ------------------------------------------
for depth in 87000 12000; do
  printf '[{"type":"end_phase","x":%s}]' "$(nested $depth)" >"$tmp/deep.json"
  expect 2 "warmaster play, actions nested $depth" -- "$ref" warmaster play --battle "$wm/default.json" \
    --actions "$tmp/deep.json" -o "$tmp/deep.log"
  err_has "$tmp/deep.json: nested deeper than 256 levels" "warmaster actions $depth"
  absent "$tmp/deep.log" "deep actions"
  expect 2 "ancients play, actions nested $depth" -- "$ref" ancients play --battle "$anc" --actions "$tmp/deep.json"
  err_has "$tmp/deep.json: nested deeper than 256 levels" "ancients actions $depth"
  expect 2 "warmaster battle nested $depth" -- "$ref" warmaster render --battle "$tmp/deep.json" -o "$tmp/d.svg"
  err_has "nested deeper than 256 levels" "warmaster battle $depth"
  expect 2 "blightmeer move nested $depth" -- "$ref" blightmeer check --battle "$town" --move "$tmp/deep.json"
  err_has "$tmp/deep.json: nested deeper than 256 levels" "blightmeer move $depth"
  # A game log whose "result" is nested deep, replayed by each system.
  for sys in warmaster ancients blightmeer; do
    { printf '{"format":"referee-log/1","system":"%s","seed":1,"scenario":"x"}\n' "$sys"
      printf '{"seq":1,"action":{},"rolls":[],"result":%s}\n' "$(nested $depth)"; } >"$tmp/deep-replay.log"
    expect 2 "$sys replay, result nested $depth" -- "$ref" "$sys" replay --log "$tmp/deep-replay.log"
    err_has "$tmp/deep-replay.log line 2: nested deeper than 256 levels" "$sys replay $depth"
  done
done
printf '[{"type":"end_phase","x":%s}]' "$(nested 250)" >"$tmp/ok.json"
expect 2 "250 levels is within the limit (refused for its content)" -- "$ref" warmaster play \
  --battle "$wm/default.json" --actions "$tmp/ok.json"
grep -q "nested deeper" "$tmp/err" && fail "250 levels refused for nesting"

# --- 2. exit 2, not 1 -------------------------------------------------------------
echo '{}' >"$tmp/empty.json"
expect 2 "ancients play --actions {}" -- "$ref" ancients play --battle "$anc" --actions "$tmp/empty.json"
err_has "$tmp/empty.json: actions: missing field" "ancients actions {}"
bad="$tmp/b"$'\xff'".json"
cp "$wm/default.json" "$bad"
# (exit 3: the bundled action list has refused actions on purpose)
expect 3 "warmaster play, battle path not UTF-8" -- "$ref" warmaster play --battle "$bad" \
  --actions "$wm/command-actions/default.json" -o "$tmp/wm.log"
grep -q $'"scenario":"[^"]*b\xef\xbf\xbd.json"' "$tmp/wm.log" || fail "warmaster log: stray byte shown as U+FFFD"
cp "$anc" "$bad"
expect 0 "ancients play, battle path not UTF-8" -- "$ref" ancients play --battle "$bad" --listed-deal \
  --actions "$root/tests/ancients/data/golden_actions.json" --seed 7
grep -q $'b\xef\xbf\xbd.json' "$tmp/out" || fail "ancients log: stray byte shown as U+FFFD"
cp "$town" "$bad"
echo '{"unit":"captain","path":[{"type":"walk","to":[3.5,7.5]}]}' >"$tmp/move.json"
echo '[{"type":"move","unit":"captain","path":[{"type":"walk","to":[3.5,7.5]}]}]' >"$tmp/bm-actions.json"
expect 0 "blightmeer play, battle path not UTF-8" -- "$ref" blightmeer play --battle "$bad" \
  --actions "$tmp/bm-actions.json" --seed 3 -o "$tmp/bm.log"
grep -q $'b\xef\xbf\xbd.json' "$tmp/bm.log" || fail "blightmeer log: stray byte shown as U+FFFD"

# --- 3. only regular files, and only so much -------------------------------------
expect 2 "/dev/zero as a battle" -- "$ref" warmaster render --battle /dev/zero -o -
err_has "/dev/zero: is a device; only regular files are read" "/dev/zero"
mkfifo "$tmp/fifo"
expect 2 "a FIFO as a battle" -- "$ref" ancients render --battle "$tmp/fifo"
err_has "$tmp/fifo: is a pipe; only regular files are read" "fifo"
expect 2 "a FIFO as a log" -- "$ref" blightmeer replay --log "$tmp/fifo"
err_has "is a pipe" "fifo log"
expect 2 "a directory as a move" -- "$ref" warmaster check --battle "$wm/default.json" --move "$tmp"
err_has "$tmp: is a directory" "directory"
REFEREE_MAX_INPUT_BYTES=100 expect 2 "over the size limit" -- "$ref" warmaster render --battle "$wm/default.json" -o -
err_has "is larger than the input limit of 100 bytes (set REFEREE_MAX_INPUT_BYTES to raise it)" "size limit"
REFEREE_MAX_INPUT_BYTES=lots expect 2 "a bad size limit" -- "$ref" warmaster render --battle "$wm/default.json" -o -
err_has "REFEREE_MAX_INPUT_BYTES: expected a positive whole number" "bad limit"
# The limit is read once when referee starts and reaches every command that reads a file.
for cmd in "warmaster state --battle $wm/default.json" "ancients render --battle $anc" \
  "blightmeer render --battle $town -o -" "warmaster arena --battle $wm/default.json --games 1" \
  "serve --battle $wm/default.json --port 0 --data :memory:"; do
  # shellcheck disable=SC2086 # the words of the command
  REFEREE_MAX_INPUT_BYTES=100 expect 2 "the size limit: $cmd" -- "$ref" $cmd
  err_has "is larger than the input limit of 100 bytes" "the size limit: $cmd"
done
expect 2 "a trusted proxy that is not an address" -- "$ref" serve --port 0 --data :memory: --trusted-proxy proxy.example
err_has "--trusted-proxy: expected an IP address" "trusted proxy"
REFEREE_MAX_INPUT_BYTES=lots expect 2 "a bad size limit, no file read" -- "$ref" warmaster rules
err_has "REFEREE_MAX_INPUT_BYTES: expected a positive whole number" "bad limit, rules"

# --- 5. nothing half-written: every output is checked before any is written -------
nodir="$tmp/no/such/dir/out"
expect 2 "ancients destinations, bad -o" -- "$ref" ancients destinations --battle "$anc" --unit a_li1 \
  --svg "$tmp/h1.svg" -o "$nodir.json"
absent "$tmp/h1.svg" "ancients destinations"
expect 2 "blightmeer reach, bad -o" -- "$ref" blightmeer reach --battle "$town" --unit captain \
  --svg "$tmp/h2.svg" -o "$nodir.json"
absent "$tmp/h2.svg" "blightmeer reach"
expect 2 "blightmeer play, bad -o keeps the summary back" -- "$ref" blightmeer play --battle "$town" \
  --actions "$tmp/bm-actions.json" --seed 1 -o "$nodir.log"
[ -s "$tmp/out" ] && fail "blightmeer play printed a summary for a log it could not write"
expect 2 "warmaster reach, bad --svg" -- "$ref" warmaster reach --battle "$wm/gap-rule.json" --unit swords \
  -o "$tmp/h4.json" --svg "$nodir.svg"
absent "$tmp/h4.json" "warmaster reach"
expect 2 "warmaster odds, bad -o" -- "$ref" warmaster odds --command 9 --distance 25 --plot "$tmp/h5.svg" \
  -o "$nodir.json"
absent "$tmp/h5.svg" "warmaster odds"
expect 2 "warmaster play, bad -o keeps the summary back" -- "$ref" warmaster play --battle "$wm/default.json" \
  --actions "$wm/command-actions/default.json" -o "$nodir.log"
[ -s "$tmp/out" ] && fail "warmaster play printed a summary for a log it could not write"
expect 2 "one path for two outputs" -- "$ref" warmaster odds --command 9 --plot "$tmp/same" -o "$tmp/same"
err_has "is given for two outputs" "same path"
absent "$tmp/same" "same path"
expect 0 "both outputs when both paths are good" -- "$ref" warmaster odds --command 9 --distance 25 \
  --plot "$tmp/h5.svg" -o "$tmp/h5.json"
grep -q '<svg' "$tmp/h5.svg" && grep -q '"needed"' "$tmp/h5.json" || fail "odds wrote both outputs"
ls -A "$tmp" | grep -q 'tmp-' && fail "a temporary file was left behind: $(ls -A "$tmp")"

# --- 6. safe writing ----------------------------------------------------------
echo precious >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/link.json"
expect 2 "-o onto a symbolic link" -- "$ref" warmaster odds --command 9 -o "$tmp/link.json"
err_has "$tmp/link.json: is a symbolic link" "symlink target"
[ -L "$tmp/link.json" ] || fail "the link was replaced"
ln -s "$tmp/victim" "$tmp/answer.json.tmp-referee"
expect 0 "a link planted at the old temporary name" -- "$ref" warmaster odds --command 9 -o "$tmp/answer.json"
grep -q precious "$tmp/victim" || fail "the planted link's target was overwritten"
grep -q '"needed"' "$tmp/answer.json" || fail "the answer was written"
# As root a regression would replace the system's own /dev/null: root tries a
# device file of its own making instead (and skips this if it may not make one).
device=/dev/null
if [ "$(id -u)" -eq 0 ]; then
  device="$tmp/null"
  mknod "$device" c 1 3 2>/dev/null || device=""
fi
if [ -n "$device" ]; then
  expect 2 "-o onto a device" -- "$ref" warmaster odds --command 9 -o "$device"
  err_has "$device: is a device" "device output"
  [ -c "$device" ] || fail "$device is no longer a device"
fi
expect 2 "-o onto a directory" -- "$ref" ancients render --battle "$anc" -o "$tmp"
err_has "is a directory" "directory output"
expect 2 "-o onto a FIFO" -- "$ref" blightmeer render --battle "$town" -o "$tmp/fifo"
err_has "is a pipe" "fifo output"
expect 0 "-o - writes to standard output" -- "$ref" warmaster render --battle "$wm/default.json" -o -
grep -q '<svg' "$tmp/out" || fail "-o - wrote no SVG to standard output"
grep -q precious "$tmp/victim" || fail "victim changed"

# --- 7. write errors are errors --------------------------------------------------
if [ -w /dev/full ]; then
  "$ref" warmaster odds --command 9 --distance 25 >/dev/full 2>"$tmp/err"
  code=$?
  [ "$code" -eq 1 ] || fail "odds > /dev/full: exit $code, expected 1"
  err_has "cannot write to standard output" "/dev/full"
  "$ref" ancients render --battle "$anc" >/dev/full 2>/dev/null && fail "render > /dev/full exited 0"
fi

# --- 8. NaN and infinity are not numbers ----------------------------------------
for v in nan inf -inf NaN infinity; do
  expect 2 "odds --distance $v" -- "$ref" warmaster odds --command 9 --distance "$v"
  err_has "is not a finite number" "--distance $v"
done
expect 2 "odds --max-distance nan" -- "$ref" warmaster odds --command 9 --table --max-distance nan
expect 2 "reach --cell nan" -- "$ref" warmaster reach --battle "$wm/gap-rule.json" --unit swords --cell nan
expect 2 "route --max nan" -- "$ref" warmaster route --battle "$wm/gap-rule.json" --unit swords --stand 0 \
  --to 50,50,0 --max nan
expect 2 "route --to nan" -- "$ref" warmaster route --battle "$wm/gap-rule.json" --unit swords --stand 0 --to nan,50,0
expect 2 "blightmeer route --to nan" -- "$ref" blightmeer route --battle "$town" --unit captain --to nan,3
err_has "--to" "blightmeer --to nan"

# --- 9. seeds ------------------------------------------------------------------------
for s in -1 1e29 11.5 18446744073709551616 ' 5' 0x10; do
  expect 2 "warmaster play --seed '$s'" -- "$ref" warmaster play --battle "$wm/default.json" \
    --actions "$wm/command-actions/default.json" --seed "$s"
  err_has "--seed" "seed $s"
  expect 2 "ancients play --seed '$s'" -- "$ref" ancients play --battle "$anc" \
    --actions "$root/tests/ancients/data/golden_actions.json" --seed "$s"
  expect 2 "blightmeer resolve --seed '$s'" -- "$ref" blightmeer resolve --battle "$town" --move "$tmp/move.json" --seed "$s"
  expect 2 "leave-table --seed '$s'" -- "$ref" warmaster leave-table --battle "$wm/default.json" \
    --unit emp-halberd-1 --seed "$s"
done
expect 0 "the largest seed" -- "$ref" blightmeer resolve --battle "$town" --move "$tmp/move.json" \
  --seed 18446744073709551615
grep -q '"seed": 18446744073709551615' "$tmp/out" || fail "largest seed kept"
"$ref" blightmeer play --battle "$town" --actions "$tmp/bm-actions.json" --seed 3 -o "$tmp/s.log" >/dev/null \
  || fail "play for the seed log"
sed '1s/"seed":3/"seed":11.5/' "$tmp/s.log" >"$tmp/s115.log"
expect 2 "a log with seed 11.5" -- "$ref" blightmeer replay --log "$tmp/s115.log" --battle "$town"
err_has "$tmp/s115.log line 1.seed: expected a whole number" "log seed 11.5"

# --- 10. control characters in ids ---------------------------------------------------
ctrl() { sed "s/\"id\": *\"$2\"/\"id\": \"$2\\\\u0001\"/" "$1"; }
ctrl "$wm/default.json" emp-halberd-1 >"$tmp/cw.json"
expect 2 "warmaster id with U+0001" -- "$ref" warmaster render --battle "$tmp/cw.json" -o "$tmp/cw.svg"
err_has "$tmp/cw.json: armies[0].units[0].id: contains the control character U+0001" "warmaster id"
absent "$tmp/cw.svg" "warmaster control id"
ctrl "$anc" a_li1 >"$tmp/ca.json"
expect 2 "ancients id with U+0001" -- "$ref" ancients render --battle "$tmp/ca.json"
err_has "$tmp/ca.json: units[0].id: contains the control character U+0001" "ancients id"
ctrl "$town" captain >"$tmp/cb.json"
expect 2 "blightmeer id with U+0001" -- "$ref" blightmeer render --battle "$tmp/cb.json"
err_has "contains the control character U+0001" "blightmeer id"
# A name (not an id) with control characters still renders as well-formed XML.
sed 's/"name": *"Halberdiers"/"name": "Hal\\u0001ber\\u001fdiers"/' "$wm/default.json" >"$tmp/cn.json"
expect 0 "warmaster name with control characters" -- "$ref" warmaster render --battle "$tmp/cn.json" -o -
LC_ALL=C grep -q $'[\x01-\x08\x0b\x0c\x0e-\x1f]' "$tmp/out" && fail "raw control character in the SVG"
grep -q $'Hal\xef\xbf\xbdber' "$tmp/out" || fail "control character shown as U+FFFD"

# --- 11. errors name the file --------------------------------------------------------
echo '[]' >"$tmp/arr.json"
expect 2 "[] as a warmaster move" -- "$ref" warmaster check --battle "$wm/default.json" --move "$tmp/arr.json"
err_has "$tmp/arr.json: expected an object, got an array" "[] move"
expect 2 "{} as a warmaster battle" -- "$ref" warmaster render --battle "$tmp/empty.json" -o -
err_has "$tmp/empty.json: " "{} battle"
expect 2 "{} as a blightmeer move" -- "$ref" blightmeer check --battle "$town" --move "$tmp/empty.json"
err_has "$tmp/empty.json: " "{} blightmeer move"
echo 42 >"$tmp/n.json"
expect 2 "42 as an ancients battle" -- "$ref" ancients render --battle "$tmp/n.json"
err_has "$tmp/n.json: expected an object, got a number" "42 battle"
"$ref" ancients play --battle "$anc" --listed-deal --actions "$root/tests/ancients/data/golden_actions.json" --seed 7 -o "$tmp/a.log" \
  || fail "ancients play for the log"
n=$(grep -n '"to":\[' "$tmp/a.log" | tail -n 1 | cut -d: -f1)
sed "${n}s/\"to\":\[[0-9]*,[0-9]*\]/\"to\":[1,1]/" "$tmp/a.log" >"$tmp/a-bad.log"
if cmp -s "$tmp/a.log" "$tmp/a-bad.log"; then
  fail "the log was not changed"
else
  expect 2 "ancients replay of a changed log" -- "$ref" ancients replay --log "$tmp/a-bad.log"
  err_has "$tmp/a-bad.log line $n" "ancients replay names the log"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "hostile input: all passed"
