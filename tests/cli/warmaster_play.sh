#!/usr/bin/env bash
# End-to-end: referee warmaster play, the ways a game's actions arrive: a plan
# file, the player at standard input (--interactive), and the built-in
# opponent (--opponent); a picture after each phase (--svg-dir); exit 2 with
# nothing written on bad input.
# Usage: warmaster_play.sh <path-to-referee> <repo-root> <json_tool>
set -uo pipefail
ref="$1"
root="$2"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The player at the keyboard: a malformed line and a refused action are
# answered and asked again; 'legal' lists the actions; the game goes on.
printf '%s\n' '{"type":"end_phase"}' legal '{"type":"bogus"}' '{"type":"order","character":"emp-general","units":["emp-knights"]}' \
  '{"type":"shoot"}' quit |
  "$ref" warmaster play --battle "$sc/default.json" --interactive --svg-dir "$tmp/pictures" --explain \
    -o "$tmp/game.jsonl" >"$tmp/summary.txt" 2>"$tmp/prompts.txt"
code=$?
[[ $code == 3 ]] || fail "a refused action exits 3, got $code"
grep -q 'turn 1, Empire of Ostland (side 0), command: initiative: your action' "$tmp/prompts.txt" || fail "the prompt names the turn, side and step"
grep -q '{"type":"shoot"}' "$tmp/prompts.txt" || fail "'legal' lists the shoot action"
grep -q 'action.type: unknown value "bogus"' "$tmp/prompts.txt" || fail "a malformed line names the field"
grep -q 'warmaster.phase.sequence' "$tmp/summary.txt" || fail "an order in the Shooting phase is refused with its rule id"
grep -q '^turn 1, Empire of Ostland: shoot' "$tmp/summary.txt" || fail "the narrative names the turn, side and action"
grep -q 'warmaster.shooting.target: emp-handgunners shoots at orc-trolls' "$tmp/summary.txt" || fail "the shooting report"
[[ "$(wc -l <"$tmp/game.jsonl")" == 4 ]] || fail "the log: a header and three entries (one refused)"
# A picture of the start and one after each phase that ended.
for f in 000-start.svg 001-turn1-empire-of-ostland-command-initiative.svg 002-turn1-empire-of-ostland-shooting.svg; do
  [[ -s "$tmp/pictures/$f" ]] || fail "picture $f"
done
# The caption is the key's bold title, wrapped to the key's width: its lines joined again.
caption="$(sed -n 's/.*font-weight="bold"[^>]*>\([^<]*\)<.*/\1/p' "$tmp/pictures/002-turn1-empire-of-ostland-shooting.svg" | paste -sd' ')"
[[ "$caption" == 'turn 1, Empire of Ostland: after the shooting' ]] ||
  fail "each picture says which phase it follows (caption: $caption)"
grep -q '>20cm<' "$tmp/pictures/000-start.svg" || fail "the picture has a scale"
grep -q 'id="legend"' "$tmp/pictures/000-start.svg" || fail "the picture has a key"
# The log replays.
"$ref" warmaster replay --log "$tmp/game.jsonl" -o "$tmp/replay.json" || fail "the interactive game's log replays"

# Bad input: exit 2, nothing written.
rm -rf "$tmp/none"
"$ref" warmaster play --battle "$sc/default.json" -o "$tmp/none.jsonl" 2>"$tmp/err.txt"
[[ $? == 2 ]] || fail "nothing to play: exit 2"
grep -q -- '--actions: give a plan file, --opponent or --interactive' "$tmp/err.txt" || fail "nothing to play: the reason"
"$ref" warmaster play --battle "$sc/default.json" --opponent 2 -o "$tmp/none.jsonl" 2>"$tmp/err.txt"
[[ $? == 2 ]] || fail "--opponent 2: exit 2"
grep -q -- '--opponent: "2" is not a side: give 0, 1, both, "Empire of Ostland" or "Orcs of the Broken Tooth"' "$tmp/err.txt" ||
  fail "--opponent 2: the reason, $(cat "$tmp/err.txt")"
[[ ! -e "$tmp/none.jsonl" ]] || fail "a refused command wrote its log"

# The Combat phase's end_phase carries the players' decisions
# (docs/rulings.md#warmaster-combat-decisions): logged as given, replayed;
# with another phase's end_phase they are bad input, exit 2, nothing written.
printf '%s' '[{"type":"end_phase"},{"type":"shoot"},{"type":"end_phase","decisions":[{"unit":"emp-knights","choice":"stand"},{"unit":"orc-trolls","choice":"fall_back","distance":3}]}]' >"$tmp/decide.json"
"$ref" warmaster play --battle "$sc/default.json" --actions "$tmp/decide.json" -o "$tmp/decide.jsonl" >/dev/null ||
  fail "a plan with combat decisions exit $?"
grep -q '"decisions":\[{"choice":"stand","unit":"emp-knights"},{"choice":"fall_back","distance":3,"unit":"orc-trolls"}\]' \
  "$tmp/decide.jsonl" || fail "the decisions are logged as given"
"$ref" warmaster replay --log "$tmp/decide.jsonl" -o "$tmp/decide-replay.json" || fail "a log with decisions replays"
printf '%s' '[{"type":"end_phase","decisions":[{"unit":"emp-knights","choice":"stand"}]}]' >"$tmp/decide-early.json"
"$ref" warmaster play --battle "$sc/default.json" --actions "$tmp/decide-early.json" -o "$tmp/none.jsonl" 2>"$tmp/err.txt"
[[ $? == 2 ]] || fail "decisions in the Command phase: exit 2"
grep -q '\[0\].decisions: decisions are given only with the end_phase of the Combat phase; this is the command phase' \
  "$tmp/err.txt" || fail "decisions in the Command phase: the field, $(cat "$tmp/err.txt")"
[[ ! -e "$tmp/none.jsonl" ]] || fail "refused decisions wrote a log"

# The built-in opponent against itself: the whole battle, to its end.
"$ref" warmaster play --battle "$sc/default.json" --opponent both --seed 5 --explain -o "$tmp/bots.jsonl" \
  --svg-dir "$tmp/bots" >"$tmp/bots.txt" || fail "opponent against opponent exit $?"
grep -q '^the game is over after turn' "$tmp/bots.txt" || fail "the opponents play the battle to its end"
"$ref" warmaster replay --log "$tmp/bots.jsonl" -o "$tmp/bots-replay.json" || fail "the opponents' game replays"
"$ref" warmaster play --battle "$sc/default.json" --opponent both --seed 5 -o "$tmp/bots2.jsonl" >/dev/null ||
  fail "second game exit"
cmp -s "$tmp/bots.jsonl" "$tmp/bots2.jsonl" || fail "the same seed gives the same game"
# The player plays side 0 from a plan, the opponent side 1.
"$ref" warmaster play --battle "$sc/default.json" --opponent "Orcs of the Broken Tooth" \
  --actions "$sc/command-actions/default.json" --max-actions 60 -o "$tmp/mixed.jsonl" >/dev/null 2>&1
code=$?
[[ $code == 0 || $code == 3 ]] || fail "plan against opponent exit $code"
[[ "$(wc -l <"$tmp/mixed.jsonl")" -gt 15 ]] || fail "plan against opponent: the opponent played side 1's turn"

[[ $failures == 0 ]] && echo "warmaster_play: all passed"
exit $((failures > 0))
