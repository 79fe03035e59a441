#!/usr/bin/env bash
# End-to-end: referee warmaster query formation_plan (the board's formation
# helpers) on the pitched battle after an order: a column along a path and a
# line facing a point are planned with the verdict applying them would give,
# and bad input is exit 2 naming the field, with nothing written.
# Usage: warmaster_formation.sh <path-to-referee> <repo-root> <json_tool>
set -uo pipefail
ref="$1"
root="$2"
json_tool="$3"
battle="$root/scenarios/warmaster/pitched-battle.json"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The General orders the first Halberdiers (dice 1, 1: the order passes).
printf '{"actions": [{"type":"order","character":"emp-general","unit":"emp-halberd-1"}]}' >"$tmp/actions.json"
query() {
  "$ref" warmaster query formation_plan --battle "$battle" --actions "$tmp/actions.json" --dice 1,1 --args "$1" -o "$2"
}

# A column 12 cm north from the middle stand (54, 22): legal, the lead at (54, 34).
query '{"unit":"emp-halberd-1","shape":"column","path":[{"x":54,"y":22},{"x":54,"y":34}]}' "$tmp/column.json" ||
  fail "column exit $?"
[[ "$("$json_tool" get "$tmp/column.json" /legal)" == true ]] || fail "the column is legal: $(cat "$tmp/column.json")"
[[ "$("$json_tool" get "$tmp/column.json" /move/stands/0/to/y)" == 34* ]] || fail "the lead ends at y 34"
# 30 cm on: over the Halberdiers' 20 cm pace, refused with the distance rule.
query '{"unit":"emp-halberd-1","shape":"column","path":[{"x":54,"y":22},{"x":54,"y":52}]}' "$tmp/far.json" ||
  fail "far column exit $?"
[[ "$("$json_tool" get "$tmp/far.json" /legal)" == false ]] || fail "30 cm is refused"
grep -q '"warmaster.movement.distance"' "$tmp/far.json" || fail "the distance rule is named: $(head -c 400 "$tmp/far.json")"
# A line facing east of its centre.
query '{"unit":"emp-halberd-1","shape":"line","toward":{"x":90,"y":22}}' "$tmp/line.json" || fail "line exit $?"
[[ "$("$json_tool" get "$tmp/line.json" /move/stands/0/to/facing)" == 90* ]] || fail "the line faces 90 degrees"

# Bad input: exit 2, the field named, nothing written.
for bad in '{"unit":"emp-halberd-1","shape":"square","toward":{"x":1,"y":2}}|shape' \
           '{"unit":"emp-halberd-1","shape":"line"}|toward' \
           '{"unit":"emp-halberd-1","shape":"column","path":[{"x":54,"y":22}]}|path' \
           '{"unit":"nobody","shape":"line","toward":{"x":1,"y":2}}|unit'; do
  args="${bad%|*}"
  field="${bad##*|}"
  query "$args" "$tmp/bad.json" 2>"$tmp/err"
  code=$?
  [[ $code == 2 ]] || fail "$args: exit $code, expected 2"
  grep -q -- "--args.$field" "$tmp/err" || fail "$args: stderr does not name --args.$field: $(cat "$tmp/err")"
  [[ ! -e "$tmp/bad.json" ]] || fail "$args: an answer was written"
done

[[ $failures == 0 ]] || exit 1
echo "warmaster formation_plan: all passed"
