#!/usr/bin/env bash
# End-to-end: referee warmaster reach / los / distance / route on bundled
# scenarios, and exit 2 with nothing written on each kind of bad input.
# Usage: warmaster_reach.sh <path-to-referee> <repo-root>
set -uo pipefail
ref="$1"
root="$2"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# --- route: the gap rule ------------------------------------------------------
out="$("$ref" warmaster route --battle "$sc/gap-rule.json" --unit swords --stand 0 --to 50,50,0)" || fail "route exit $?"
grep -q '"direct_clear": false' <<<"$out" || fail "swords: the 4.0 cm enemy gap is closed to infantry: $out"
grep -q 'gap between boyz-1 stand 1 and boyz-2 stand 1 is 4.0 cm, not wider than the 4.0 cm frontage' <<<"$out" \
  || fail "swords: gap reason: $out"
grep -q '"found": true' <<<"$out" || fail "swords: a detour exists: $out"
# Round boyz-1's outer corner (x 45) with the disc's 0.95 cm radius, plus the
# planner's circumscribed corner points: x = 43.048.
grep -q '"x": 43.048' <<<"$out" || fail "swords: detour round boyz-1's outer side: $out"

out="$("$ref" warmaster route --battle "$sc/gap-rule.json" --unit outriders --stand 0 --to 50,50,0 --explain)" \
  || fail "outriders route exit $?"
grep -q 'a planned route' <<<"$out" || fail "outriders: planned round the swords: $out"
grep -q '(49.0, 33.7)' <<<"$out" || fail "outriders: 4.0 cm is more than a cavalry frontage, through the gap: $out"

# --- line of sight and distance -------------------------------------------------
out="$("$ref" warmaster los --battle "$sc/gap-rule.json" --from crossbows --to archers)" || fail "los exit $?"
grep -q '"visible": false' <<<"$out" || fail "the wood hides the archers: $out"
grep -q '"blocked_by": "terrain wood-1"' <<<"$out" || fail "blocked by the wood: $out"
grep -q '"rule": "warmaster.sight"' <<<"$out" || fail "sight rule id: $out"

out="$("$ref" warmaster los --battle "$sc/gap-rule.json" --from swords --to boyz-1)" || fail "los 2 exit $?"
grep -q '"visible": true' <<<"$out" || fail "swords see boyz-1: $out"

out="$("$ref" warmaster distance --battle "$sc/gap-rule.json" --from swords --to boyz-1)" || fail "distance exit $?"
grep -q '"distance": 13.0' <<<"$out" || fail "swords front edge y=21 to boyz-1 near edge y=34: 13.0: $out"
grep -q '"rule": "warmaster.distance"' <<<"$out" || fail "distance names its rule: $out"

out="$("$ref" warmaster distance --battle "$sc/gap-rule.json" --from general --to swords --explain)" || fail "char distance"
grep -q 'general to swords is 28.2 cm' <<<"$out" || fail "character distance: $out"

# --- reach ----------------------------------------------------------------------
"$ref" warmaster reach --battle "$sc/gap-rule.json" --unit swords -o "$tmp/reach.json" --svg "$tmp/reach.svg" \
  || fail "reach exit $?"
grep -q '"allowance": 20.0' "$tmp/reach.json" || fail "swords: one stand, full pace 20"
grep -q '"boundary"' "$tmp/reach.json" || fail "reach has a boundary"
grep -q '"rule": "warmaster.movement.reach"' "$tmp/reach.json" || fail "reach names its rule"
grep -q '<svg' "$tmp/reach.svg" || fail "reach wrote no svg"
grep -q 'fill-rule="evenodd"' "$tmp/reach.svg" || fail "reach svg has the area"
grep -q 'keeping each stand&apos;s facing\|keeping each stand.s facing' "$tmp/reach.svg" || fail "reach svg says which facing it assumes"
grep -q '10 cm' "$tmp/reach.svg" || fail "reach svg has a scale bar"
# Ending facing 90: a 40 x 20 mm stand's corners move 3.16 cm more than its centre.
out="$("$ref" warmaster reach --battle "$sc/gap-rule.json" --unit swords --facing 90)" || fail "reach --facing exit $?"
grep -q '"turn_cost": 3.16' <<<"$out" || fail "reach --facing 90 takes the turn off the allowance: $out"
grep -q '"stands"' <<<"$out" || fail "reach gives each stand's own area: $out"
out="$("$ref" warmaster reach --battle "$sc/gap-rule.json" --unit outriders --kind charge --explain)" || fail "reach 2"
grep -q 'full pace (charge) 30.0 cm' <<<"$out" || fail "cavalry charge reach 30: $out"
out="$("$ref" warmaster reach --battle "$sc/default.json" --unit emp-general --kind character --explain)" || fail "reach 3"
grep -q '60.0 cm' <<<"$out" || fail "character reach 60: $out"

# --- bad input: exit 2, nothing written ------------------------------------------
expect_2() {
  local what="$1"
  shift
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local code=$?
  [[ $code -eq 2 ]] || fail "$what: exit $code, want 2"
  grep -q 'referee: error' "$tmp/err.txt" || [[ $code -ne 2 ]] || grep -q . "$tmp/err.txt" || fail "$what: no error message"
}
expect_2 "facing out of range" "$ref" warmaster reach --battle "$sc/gap-rule.json" --unit swords --facing 400 -o "$tmp/no0.json"
[[ ! -e "$tmp/no0.json" ]] || fail "facing out of range: wrote an answer"
expect_2 "unknown unit" "$ref" warmaster reach --battle "$sc/gap-rule.json" --unit nobody -o "$tmp/no1.json" --svg "$tmp/no1.svg"
[[ ! -e "$tmp/no1.json" && ! -e "$tmp/no1.svg" ]] || fail "unknown unit: a file was written"
grep -q -- '--unit: no unit "nobody"' "$tmp/err.txt" || fail "unknown unit message: $(cat "$tmp/err.txt")"
expect_2 "bad kind" "$ref" warmaster reach --battle "$sc/gap-rule.json" --unit swords --kind sprint -o "$tmp/no2.json"
[[ ! -e "$tmp/no2.json" ]] || fail "bad kind: a file was written"
expect_2 "bad pose" "$ref" warmaster route --battle "$sc/gap-rule.json" --unit swords --stand 0 --to 50,x,0 -o "$tmp/no3.json"
[[ ! -e "$tmp/no3.json" ]] || fail "bad pose: a file was written"
grep -q -- '--to: expected x,y,facing' "$tmp/err.txt" || fail "bad pose message: $(cat "$tmp/err.txt")"
expect_2 "bad stand" "$ref" warmaster route --battle "$sc/gap-rule.json" --unit swords --stand 3 --to 50,50,0
expect_2 "los unknown" "$ref" warmaster los --battle "$sc/gap-rule.json" --from swords --to ghosts
expect_2 "missing battle" "$ref" warmaster distance --battle "$tmp/none.json" --from swords --to boyz-1
echo '{"armies": [' >"$tmp/broken.json"
expect_2 "broken battle" "$ref" warmaster los --battle "$tmp/broken.json" --from a --to b

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "warmaster reach/los/distance/route: all passed"
