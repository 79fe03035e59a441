#!/usr/bin/env bash
# End-to-end: referee warmaster shoot (one Shooting phase) and odds --attacks
# on the bundled shooting battle, and exit 2 with nothing written on bad input.
# Usage: warmaster_shoot.sh <path-to-referee> <repo-root> <json_tool>
set -uo pipefail
ref="$1"
root="$2"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The Empire shoots. Only the handgunners have a target: the trolls, 27 cm
# away. Scripted: to hit 4, 6, 2 (2 hits on 4+), saves 6 and 1 against the
# trolls' 5+ (1 unsaved), drive back one D6: 3 cm.
"$ref" warmaster shoot --battle "$sc/shooting.json" --side 0 --dice 4,6,2,6,1,3 -o "$tmp/shoot.json" \
  --after "$tmp/after.json" || fail "shoot exit $?"
grep -q '"target": "orc-trolls"' "$tmp/shoot.json" || fail "handgunners shoot at the trolls"
grep -q '"unsaved": 1' "$tmp/shoot.json" || fail "one unsaved hit"
grep -q '"total": 3' "$tmp/shoot.json" || fail "driven back 3 cm"
grep -q '"rule": "warmaster.shooting.drive_back"' "$tmp/shoot.json" || fail "drive back ruling"
grep -q '"orc-trolls"' "$tmp/after.json" || fail "the battlefield after the phase is written"
# The battlefield written after the phase loads again, and the trolls have moved.
"$ref" warmaster shoot --battle "$tmp/after.json" --side 1 --seed 1 -o "$tmp/again.json" || fail "after.json reloads"

# Seeded: the same seed gives the same phase.
"$ref" warmaster shoot --battle "$sc/shooting.json" --seed 7 -o "$tmp/a.json" || fail "seeded exit"
"$ref" warmaster shoot --battle "$sc/shooting.json" --seed 7 -o "$tmp/b.json" || fail "seeded exit"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "the same seed gave different phases"

# Odds: 3 dice at 4+ with a 4+ save: P(no unsaved hit) = 19683/46656.
out="$("$ref" warmaster odds --attacks 3 --armour 4 --hits 3)" || fail "odds exit $?"
grep -q '19683/46656' <<<"$out" || fail "odds: P(0 unsaved) = 19683/46656: $out"

expect_2() {
  local what="$1"
  shift
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local code=$?
  [[ $code -eq 2 ]] || fail "$what: exit $code, want 2"
  grep -q . "$tmp/err.txt" || fail "$what: no error message"
}
expect_2 "dice run out" "$ref" warmaster shoot --battle "$sc/shooting.json" --dice 4,6 -o "$tmp/no1.json" --after "$tmp/no1b.json"
[[ ! -e "$tmp/no1.json" && ! -e "$tmp/no1b.json" ]] || fail "dice run out: wrote something"
expect_2 "bad side" "$ref" warmaster shoot --battle "$sc/shooting.json" --side 2
expect_2 "bad position" "$ref" warmaster odds --attacks 3 --position nowhere
expect_2 "bad armour" "$ref" warmaster odds --attacks 3 --armour 9
echo '{"name":"x","armies":[{"name":"a","units":[{"id":"u","type":"infantry","attacks":3,"stands":[{"x":50,"y":50}]}]},{"name":"b","units":[]}]}' >"$tmp/bad.json"
expect_2 "attacks without hits" "$ref" warmaster shoot --battle "$tmp/bad.json"
grep -q 'hits' "$tmp/err.txt" || fail "attacks without hits: the error names hits"
echo '{"name":"x","armies":[{"name":"a","units":[{"id":"u","type":"infantry","missile":"sling","stands":[{"x":50,"y":50}]}]},{"name":"b","units":[]}]}' >"$tmp/bad2.json"
expect_2 "unknown missile" "$ref" warmaster shoot --battle "$tmp/bad2.json"

[[ $failures -eq 0 ]] || exit 1
echo "warmaster shoot/odds: all passed"
