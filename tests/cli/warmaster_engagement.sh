#!/usr/bin/env bash
# End-to-end: units in combat (docs/rulings.md#warmaster-engaged and
# #warmaster-shooting-engaged) on the command line.
# - A pitched battle played on the board against the opponent before the fix
#   (tests/warmaster/data/pitched-seed7-played-before-engagement-fix.jsonl):
#   at line 75 the Orc stone thrower shot the Empire's first Halberdiers,
#   who were fighting the Orc Boyz. Since charges line up edge to edge
#   (docs/rulings.md#warmaster-moving-chargers) the replay stops earlier, at
#   line 47, where those Halberdiers charged the Orc Boyz 2.7 degrees askew:
#   the refusal names that rule and its figures.
# - `shoot --target SHOOTER=TARGET`: a choice between equally close enemies,
#   refused (exit 2, naming --target) where there is none to make.
# - The arena counts shots at engaged units, engaged flags that disagree
#   with the stands and charges not lined up edge to edge over every action:
#   none.
# Usage: warmaster_engagement.sh <path-to-referee> <repo-root> <json_tool>
set -uo pipefail
ref="$1"
root="$2"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$ref" warmaster replay --log "$root/tests/warmaster/data/pitched-seed7-played-before-engagement-fix.jsonl" \
  >"$tmp/out" 2>"$tmp/err"
code=$?
[[ $code == 2 ]] || fail "the old log is refused with exit 2, got $code"
grep -q 'line 47: the engine refuses this action now' "$tmp/err" || fail "refused at line 47: $(cat "$tmp/err")"
grep -q 'warmaster.combat.charge_alignment: unit emp-halberd-1 charges orc-boyz-1 but does not line up edge to edge: stand 2.s front edge lies at 2.7°' "$tmp/err" ||
  fail "the refusal names the rule and the angle: $(cat "$tmp/err")"
[[ ! -s "$tmp/out" ]] || fail "nothing on standard output"

# The crossbowmen in the shooting battle have a single closest enemy: no choice.
"$ref" warmaster shoot --battle "$sc/shooting.json" --side 0 --seed 3 --target emp-crossbow=orc-trolls -o "$tmp/shot.json" \
  2>"$tmp/err"
code=$?
[[ $code == 2 ]] || fail "a choice where there is none exits 2, got $code"
grep -q -- '--target' "$tmp/err" || fail "the error names --target: $(cat "$tmp/err")"
[[ ! -e "$tmp/shot.json" ]] || fail "nothing written"
"$ref" warmaster shoot --battle "$sc/shooting.json" --side 0 --seed 3 --target nobody=orc-trolls 2>"$tmp/err" >/dev/null
[[ $? == 2 ]] && grep -q 'no unit "nobody"' "$tmp/err" || fail "an unknown unit in --target: $(cat "$tmp/err")"
"$ref" warmaster shoot --battle "$sc/shooting.json" --side 0 --seed 3 --target broken 2>"$tmp/err" >/dev/null
[[ $? == 2 ]] && grep -q 'expected SHOOTER=TARGET' "$tmp/err" || fail "a malformed --target: $(cat "$tmp/err")"

# Twenty games of the opponent against itself on each fair battle: no shot
# into a combat, and every engaged flag as the stands say.
for battle in pitched-battle default; do
  "$ref" warmaster arena --battle "$sc/$battle.json" --games 20 --side0 opponent --side1 opponent -o "$tmp/arena.json" ||
    fail "arena on $battle"
  grep -q '"shots at engaged units": 0' "$tmp/arena.json" || fail "$battle: shots at engaged units"
  grep -q '"engaged flags that disagree with the stands": 0' "$tmp/arena.json" || fail "$battle: engaged flags"
  grep -q '"charges in contact not lined up edge to edge": 0' "$tmp/arena.json" || fail "$battle: charges not lined up"
done

if [[ $failures -gt 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "all warmaster engagement command-line checks passed"
