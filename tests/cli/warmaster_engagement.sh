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
#   none. On both battles, whose characters take the army list's
#   Attacks, units with a joined Hero fight, and every such fight adds the
#   bonus (docs/rulings.md#warmaster-combat-characters).
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
  grep -q '"fights of units with a joined character without its bonus": 0' "$tmp/arena.json" ||
    fail "$battle: a joined character's bonus left out"
done
# Game 88 of the pitched battle: the Wolf Riders evade off the table, come
# back at once at the point they left, touching an Empire unit, and must be
# engaged from then on (before, their flags stayed wrong for ten actions, and
# the arena counted their return as a charge not lined up).
"$ref" warmaster arena --battle "$sc/pitched-battle.json" --games 1 --seed 88 --side0 opponent --side1 opponent \
  -o "$tmp/arena88.json" || fail "arena on game 88"
grep -q '"engaged flags that disagree with the stands": 0' "$tmp/arena88.json" || fail "game 88: engaged flags"
grep -q '"charges in contact not lined up edge to edge": 0' "$tmp/arena88.json" || fail "game 88: a return counted as a charge"
grep -Eq '"fights of units with a joined character \(a count\)": [1-9]' "$tmp/arena.json" ||
  fail "default: no unit with a joined character fought in 20 games: $(cat "$tmp/arena.json")"

if [[ $failures -gt 0 ]]; then echo "$failures failure(s)"; exit 1; fi
echo "all warmaster engagement command-line checks passed"
