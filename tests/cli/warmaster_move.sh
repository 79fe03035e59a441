#!/usr/bin/env bash
# End-to-end: referee warmaster check / render / leave-table on bundled
# scenarios, and exit 2 with nothing written on each kind of bad input.
# Usage: warmaster_move.sh <path-to-referee> <repo-root>
set -uo pipefail
ref="$1"
root="$2"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# --- answers -----------------------------------------------------------------
out="$("$ref" warmaster check --battle "$sc/default.json" --move "$sc/default-move.json")" || fail "default move exit $?"
grep -q '"legal": true' <<<"$out" || fail "default move should be legal: $out"
grep -q '"formation": "line"' <<<"$out" || fail "default move formation: $out"
grep -q '"used": 18.0' <<<"$out" || fail "default move distance 18 cm: $out"

out="$("$ref" warmaster check --battle "$sc/cavalry-into-wood.json" --move "$sc/cavalry-into-wood-move.json")" || fail "wood exit $?"
grep -q '"legal": false' <<<"$out" || fail "cavalry into wood should be illegal"
grep -q '"rule": "warmaster.movement.terrain"' <<<"$out" || fail "cavalry into wood rule: $out"
grep -q 'halt at the edge, at (53.00, 28.00)' <<<"$out" || fail "cavalry halt point: $out"

out="$("$ref" warmaster check --battle "$sc/enemy-gap.json" --move "$sc/enemy-gap-move.json" --explain)" || fail "gap exit $?"
grep -q 'ILLEGAL' <<<"$out" || fail "gap move should be illegal: $out"
grep -q 'warmaster.movement.gap' <<<"$out" || fail "gap rule: $out"

# Moving Chargers (docs/rulings.md#warmaster-moving-chargers): Knights sliding
# straight on at 30 degrees touch the Orcs at a corner and are refused with the
# angle; the lined-up charge from the same start is accepted.
out="$("$ref" warmaster check --battle "$sc/charge-at-an-angle.json" --move "$sc/hand-placed/charge-at-an-angle-corner-move.json")" ||
  fail "corner charge exit $?"
grep -q '"legal": false' <<<"$out" || fail "a corner-only charge should be refused: $out"
grep -q '"rule": "warmaster.combat.charge_alignment"' <<<"$out" || fail "corner charge rule: $out"
grep -q 'front edge lies at 30.0°' <<<"$out" || fail "corner charge angle: $out"
out="$("$ref" warmaster check --battle "$sc/charge-at-an-angle.json" --move "$sc/charge-at-an-angle-move.json")" ||
  fail "lined-up charge exit $?"
grep -q '"legal": true' <<<"$out" || fail "the lined-up charge should be legal: $out"

"$ref" warmaster check --battle "$sc/table-edge.json" --move "$sc/table-edge-move.json" -o "$tmp/edge.json" || fail "edge exit"
grep -q '"leaves_table": true' "$tmp/edge.json" || fail "table edge: leaves_table"

out="$("$ref" warmaster leave-table --battle "$sc/table-edge.json" --unit goblins --dice 3)" || fail "leave-table exit"
grep -q '"outcome": "gone, roll again next turn"' <<<"$out" || fail "leave-table 3 - 1 lost = 2: $out"
a="$("$ref" warmaster leave-table --battle "$sc/table-edge.json" --unit goblins --seed 11)"
b="$("$ref" warmaster leave-table --battle "$sc/table-edge.json" --unit goblins --seed 11)"
[[ "$a" == "$b" ]] || fail "same seed, same roll"

"$ref" warmaster render --battle "$sc/default.json" --move "$sc/default-move.json" -o "$tmp/b.svg" || fail "render exit"
grep -q '<svg' "$tmp/b.svg" || fail "render wrote no svg"
grep -q 'id="unit-orc-boyz-1"' "$tmp/b.svg" || fail "render: unit missing"
grep -q 'id="move" class="legal"' "$tmp/b.svg" || fail "render: route missing"

# --- a unit deployed in no formation: a warning on standard error, the answer unchanged on standard output
cat >"$tmp/apart.json" <<'JSON'
{"name": "Knights 2 cm apart", "armies": [
 {"name": "Empire", "units": [{"id": "knights", "type": "cavalry", "stands": [
   {"x": 22, "y": 22, "facing": 0}, {"x": 26, "y": 22, "facing": 0}, {"x": 30, "y": 22, "facing": 0}]}]},
 {"name": "Orcs", "units": [{"id": "orcs", "type": "infantry", "stands": [{"x": 90, "y": 100, "facing": 180}]}]}]}
JSON
out="$("$ref" warmaster reach --battle "$tmp/apart.json" --unit knights 2>"$tmp/apart.err")" || fail "apart reach exit $?"
grep -q '"allowance": 15.0' <<<"$out" || fail "knights in no formation move at half pace (15 cm): $(head -c 300 <<<"$out")"
grep -q 'referee: warning: .*apart.json: warmaster.movement.formation: knights is deployed in no formation: stand 1 touches no other stand of its unit (nearest: stand 2, 20.0 mm away' "$tmp/apart.err" \
  || fail "deployment warning: $(cat "$tmp/apart.err")"
"$ref" warmaster reach --battle "$sc/pitched-battle.json" --unit emp-knights-1 >/dev/null 2>"$tmp/pitched.err" || fail "pitched reach exit"
[[ ! -s "$tmp/pitched.err" ]] || fail "the pitched battle deploys every unit in formation: $(cat "$tmp/pitched.err")"

# --- bad input: exit 2, message naming the item, no file written -------------
expect_bad() {  # expect_bad <label> <expected stderr text> <battle file> [move file]
  local label="$1" expected="$2" battle="$3" move="${4:-$sc/default-move.json}"
  rm -f "$tmp/out.json"
  "$ref" warmaster check --battle "$battle" --move "$move" -o "$tmp/out.json" 2>"$tmp/err"
  local rc=$?
  [[ $rc -eq 2 ]] || fail "$label: exit $rc, expected 2"
  [[ ! -e "$tmp/out.json" ]] || fail "$label: wrote an output file"
  grep -qF -- "$expected" "$tmp/err" || fail "$label: stderr lacks '$expected': $(cat "$tmp/err")"
}

battle() {  # battle <file> <units of army 0> [terrain]
  cat >"$1" <<JSON
{"terrain": ${3:-[]},
 "armies": [{"name": "a", "units": $2},
            {"name": "b", "units": [{"id": "foe", "type": "infantry", "stands": [{"x": 100, "y": 100}]}]}]}
JSON
}
ok_unit='[{"id": "emp-halberd-1", "type": "infantry", "stands": [{"x": 56, "y": 20}, {"x": 60, "y": 20}, {"x": 64, "y": 20}]}'

battle "$tmp/b1.json" '[{"id": "u", "type": "infantry", "stands": [{"x": 1}]}]'
expect_bad "missing field" "armies[0].units[0].stands[0].y: missing field" "$tmp/b1.json"
battle "$tmp/b2.json" '[{"id": "u", "type": "dragoon", "stands": [{"x": 1, "y": 1}]}]'
expect_bad "unknown troop type" 'armies[0].units[0].type: unknown value "dragoon"' "$tmp/b2.json"
battle "$tmp/b3.json" "$ok_unit]" '[{"id": "w", "kind": "wood", "polygon": [[0,0],[10,0],[10,10],[0,10]]}]'
expect_bad "unclosed polygon" "terrain[0].polygon: not closed" "$tmp/b3.json"
battle "$tmp/b4.json" "$ok_unit]" '[{"id": "w", "kind": "wood", "polygon": [[0,0],[10,10],[10,0],[0,10],[0,0]]}]'
expect_bad "self-intersecting polygon" "terrain[0].polygon: the polygon intersects itself" "$tmp/b4.json"
battle "$tmp/b5.json" "$ok_unit"', {"id": "v", "type": "cavalry", "stands": [{"x": 60, "y": 22}]}]'
expect_bad "overlapping stands" "armies[0].units[1].stands[0]: stand 1 of unit 'v' overlaps stand 2 of unit 'emp-halberd-1'" "$tmp/b5.json"
battle "$tmp/b6.json" '[{"id": "u", "type": "infantry", "stands": [{"x": NaN, "y": 1}]}]'
expect_bad "NaN" "not valid JSON" "$tmp/b6.json"
battle "$tmp/b7.json" '[{"id": "u", "type": "infantry", "stands": [{"x": 25000, "y": 1}]}]'
expect_bad "absurd coordinate" "armies[0].units[0].stands[0].x: 25000 is out of range" "$tmp/b7.json"
battle "$tmp/b8.json" '[{"id": "foe", "type": "infantry", "stands": [{"x": 10, "y": 10}]}]'
expect_bad "duplicate id" 'armies[1].units[0].id: duplicate id "foe"' "$tmp/b8.json"
battle "$tmp/b9.json" '[{"id": "u", "type": "infantry", "facng": 0, "stands": [{"x": 10, "y": 10}]}]'
expect_bad "unknown field" "armies[0].units[0].facng: unknown field" "$tmp/b9.json"
battle "$tmp/b10.json" '[{"id": "u", "type": "infantry", "stands": [{"x": 1e400, "y": 1}]}]'
expect_bad "infinite coordinate" "not valid JSON: number overflow" "$tmp/b10.json"
expect_bad "missing battle file" "cannot open the file" "$tmp/nope.json"

# Bad move requests on the default battle.
echo '{"unit": "nobody", "stands": [{"stand": 0, "to": {"x": 1, "y": 1}}]}' >"$tmp/m1.json"
expect_bad "unknown unit" 'unit: no unit "nobody"' "$sc/default.json" "$tmp/m1.json"
echo '{"unit": "emp-halberd-1", "stands": [{"stand": 5, "to": {"x": 1, "y": 1}}]}' >"$tmp/m2.json"
expect_bad "stand out of range" "stands[0].stand: 5 is out of range" "$sc/default.json" "$tmp/m2.json"
echo '{"unit": "emp-halberd-1", "kind": "sprint", "stands": [{"stand": 0, "to": {"x": 1, "y": 1}}]}' >"$tmp/m3.json"
expect_bad "unknown kind" 'kind: unknown value "sprint"' "$sc/default.json" "$tmp/m3.json"
echo '{"unit": "emp-halberd-1", "kind": "dice", "stands": [{"stand": 0, "to": {"x": 1, "y": 1}}]}' >"$tmp/m4.json"
expect_bad "dice without distance" "dice_distance: missing field" "$sc/default.json" "$tmp/m4.json"

rm -f "$tmp/bad.svg"
"$ref" warmaster render --battle "$tmp/b3.json" -o "$tmp/bad.svg" 2>/dev/null
[[ $? -eq 2 && ! -e "$tmp/bad.svg" ]] || fail "render of a bad battle: exit 2 and no svg"
"$ref" warmaster leave-table --battle "$sc/table-edge.json" --unit nobody --dice 3 2>/dev/null
[[ $? -eq 2 ]] || fail "leave-table unknown unit: exit 2"

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "warmaster_move: all passed"
