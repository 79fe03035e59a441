#!/usr/bin/env bash
# End-to-end: referee warmaster combat (one Combat phase) and combat-odds, on
# the bundled combat battle and a small duel, and exit 2 with nothing written
# on bad input.
# Usage: warmaster_combat.sh <path-to-referee> <repo-root> <json_tool>
set -uo pipefail
ref="$1"
root="$2"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The bundled battle: three engagements; the knights charged this turn, so
# each of their stands has "+1 charging an enemy in the open".
"$ref" warmaster combat --battle "$sc/combat.json" --charged emp-knights --seed 3 -o "$tmp/combat.json" \
  --after "$tmp/after.json" || fail "combat exit $?"
[[ "$(grep -c '"rule": "warmaster.combat.engagement"' "$tmp/combat.json")" == 3 ]] || fail "three engagements"
grep -q '"name": "charging an enemy in the open"' "$tmp/combat.json" || fail "the knights' charge bonus"
grep -q 'fighting a terrifying enemy (orc-giant)' "$tmp/combat.json" || fail "the giant's terror"
grep -q '"rule": "warmaster.combat.support"' "$tmp/combat.json" || fail "the crossbowmen support the halberdiers"
grep -q '"rule": "warmaster.combat.result"' "$tmp/combat.json" || fail "result ruling"
# The Orc Boss (Attacks +2) has joined the Orc Warriors: 3 stands of Attacks 3
# and his 2 (docs/rulings.md#warmaster-combat-characters).
grep -q 'orc-warriors: 3 stands (Attacks 3) fight emp-halberdiers: 11 dice (Orc Boss +2, joined to it)' "$tmp/combat.json" ||
  fail "the Orc Boss's +2"
grep -q '"character": "orc-boss"' "$tmp/combat.json" || fail "the bonus names the Orc Boss"
"$ref" warmaster combat --battle "$tmp/after.json" --side 1 --seed 1 -o "$tmp/again.json" || fail "after.json reloads"
# Seeded: the same seed gives the same phase.
"$ref" warmaster combat --battle "$sc/combat.json" --seed 7 -o "$tmp/a.json" || fail "seeded exit"
"$ref" warmaster combat --battle "$sc/combat.json" --seed 7 -o "$tmp/b.json" || fail "seeded exit"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "the same seed gave different phases"
"$ref" warmaster combat --battle "$sc/combat.json" --seed 7 --explain -o "$tmp/a.txt" || fail "explain exit"
grep -q '^warmaster.combat.hits: ' "$tmp/a.txt" || fail "explain gives the rulings"

# A duel, scripted: three empire stands of 1 Attack roll 6, 6, 6 against orcs
# with no Attacks: 3 hits, a win by 3, the orcs retreat 3 cm (y 32 -> 35);
# the empire's player chose to stand rather than pursue.
cat >"$tmp/duel.json" <<'JSON'
{"name": "duel", "armies": [
  {"name": "Empire", "units": [{"id": "empire", "type": "infantry", "attacks": 1, "hits": 3,
    "stands": [{"x": 46, "y": 30}, {"x": 50, "y": 30}, {"x": 54, "y": 30}]}]},
  {"name": "Orcs", "units": [{"id": "orcs", "type": "infantry", "hits": 10,
    "stands": [{"x": 46, "y": 32, "facing": 180}, {"x": 50, "y": 32, "facing": 180}, {"x": 54, "y": 32, "facing": 180}]}]}]}
JSON
echo '{"decisions": [{"unit": "empire", "choice": "stand"}]}' >"$tmp/stand.json"
"$ref" warmaster combat --battle "$tmp/duel.json" --dice 6,6,6 --options "$tmp/stand.json" -o "$tmp/duel-out.json" \
  --after "$tmp/duel-after.json" || fail "duel exit $?"
grep -q '"difference": 3' "$tmp/duel-out.json" || fail "duel: a win by 3"
grep -q '"rule": "warmaster.combat.retreat"' "$tmp/duel-out.json" || fail "duel: retreat ruling"
grep -q '"rule": "warmaster.combat.stand"' "$tmp/duel-out.json" || fail "duel: the empire stands"
grep -q '"y": 35' "$tmp/duel-after.json" || fail "duel: the orcs retreated 3 cm"

# Odds: one die each at 4+, no armour: a wins 324/1296, a draw 648/1296.
out="$("$ref" warmaster combat-odds --a-dice 1 --b-dice 1)" || fail "combat-odds exit $?"
grep -q '"a_wins_fraction": "324/1296"' <<<"$out" || fail "combat-odds: a wins 324/1296: $out"
grep -q '"draw_fraction": "648/1296"' <<<"$out" || fail "combat-odds: draw 648/1296"
"$ref" warmaster combat-odds --a-dice 1 --b-dice 1 --a-support 1 --explain | grep -q '972/1296' ||
  fail "combat-odds: one supporting stand: a wins 972/1296"

expect_2() {
  local what="$1"
  shift
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local code=$?
  [[ $code -eq 2 ]] || fail "$what: exit $code, want 2"
  grep -q . "$tmp/err.txt" || fail "$what: no error message"
}
expect_2 "dice run out" "$ref" warmaster combat --battle "$tmp/duel.json" --dice 6,6 -o "$tmp/no1.json" --after "$tmp/no1b.json"
[[ ! -e "$tmp/no1.json" && ! -e "$tmp/no1b.json" ]] || fail "dice run out: wrote something"
expect_2 "bad side" "$ref" warmaster combat --battle "$tmp/duel.json" --side 2
expect_2 "unknown charger" "$ref" warmaster combat --battle "$tmp/duel.json" --charged nobody
grep -q 'charged' "$tmp/err.txt" || fail "unknown charger: the error names --charged"
echo '{"decisions": [{"unit": "empire", "choice": "flee"}]}' >"$tmp/bad-options.json"
expect_2 "unknown choice" "$ref" warmaster combat --battle "$tmp/duel.json" --options "$tmp/bad-options.json"
grep -q 'decisions\[0\].choice' "$tmp/err.txt" || fail "unknown choice: the error names the field"
echo '{"decisions": [{"unit": "ghost"}]}' >"$tmp/bad-unit.json"
expect_2 "unknown unit in options" "$ref" warmaster combat --battle "$tmp/duel.json" --options "$tmp/bad-unit.json"
expect_2 "bad position" "$ref" warmaster combat-odds --a-dice 3 --b-position nowhere
expect_2 "bad armour" "$ref" warmaster combat-odds --a-dice 3 --a-armour 9

[[ $failures -eq 0 ]] || exit 1
echo "warmaster combat/combat-odds: all passed"
