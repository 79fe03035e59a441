#!/usr/bin/env bash
# End-to-end: referee warmaster odds / play / replay / state on the bundled
# battles; exit 3 when an action is refused; exit 2 with nothing written on
# bad input, and a corrupt log refused with its line number.
# Usage: warmaster_command.sh <path-to-referee> <repo-root> <json_tool>
set -uo pipefail
ref="$1"
root="$2"
json_tool="$3"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# --- odds ------------------------------------------------------------------------
# The command text's example: Command 9, 25 cm, in a wood: -1 and -1, needs 7, 21/36.
out="$("$ref" warmaster odds --command 9 --distance 25 --dense)" || fail "odds exit $?"
grep -q '"needed": 7' <<<"$out" || fail "odds needed 7: $out"
grep -q '"fraction": "21/36"' <<<"$out" || fail "odds 21/36: $out"
grep -q '"rule": "warmaster.command.distance"' <<<"$out" || fail "odds distance penalty: $out"
grep -q '"rule": "warmaster.command.dense"' <<<"$out" || fail "odds dense penalty: $out"
out="$("$ref" warmaster odds --command 9 --distance 25 --dense --explain)" || fail "odds explain exit"
grep -q 'needs 7 or less on 2D6: chance 21/36' <<<"$out" || fail "odds explain: $out"
# Exactly 20 cm is no penalty; 40.001 cm is -2.
"$ref" warmaster odds --command 8 --distance 20 | grep -q '"needed": 8' || fail "20 cm is no penalty"
"$ref" warmaster odds --command 8 --distance 40.001 | grep -q '"needed": 6' || fail "40.001 cm is -2"
out="$("$ref" warmaster odds --command 9 --distance 10 --sequence 3)" || fail "sequence exit"
grep -q '"fraction": "6/36"' <<<"$out" || fail "sequence: first fails 6/36: $out"
grep -q '"fraction": "300/1296"' <<<"$out" || fail "sequence: pass then fail 300/1296: $out"
"$ref" warmaster odds --command 9 --distance 0 --table --plot "$tmp/odds.svg" -o "$tmp/odds.json" || fail "table exit"
grep -q '<svg' "$tmp/odds.svg" || fail "plot wrote no svg"
grep -q '"table"' "$tmp/odds.json" || fail "table missing"
out="$("$ref" warmaster odds --battle "$sc/command-crossroads.json" --character emp-general --unit halb-a --unit halb-b --unit halb-c)" \
  || fail "battle odds exit"
grep -q '"needed": 8' <<<"$out" || fail "brigade odds (one stand lost): $out"

# --- play, replay, state ------------------------------------------------------------
# Run from the repository root so the log names the battle as the golden file does.
(cd "$root" && "$ref" warmaster play --battle scenarios/warmaster/default.json --seed 11 \
  --actions scenarios/warmaster/command-actions/default.json -o "$tmp/game.log" >"$tmp/play.json")
rc=$?
[[ $rc -eq 0 ]] || fail "play default exit $rc"
diff -q "$tmp/game.log" "$root/tests/games/golden/warmaster-default.log" >/dev/null \
  || fail "play log differs from the golden file"
(cd "$root" && "$ref" warmaster replay --log "$tmp/game.log" -o "$tmp/replayed.json") || fail "replay exit"
"$json_tool" equal "$tmp/replayed.json" /state "$tmp/play.json" /state || fail "replayed state differs from the played one"

"$ref" warmaster play --battle "$sc/command-crossroads.json" --seed 11 --actions "$sc/command-actions/command-crossroads.json" \
  -o "$tmp/cross.log" >"$tmp/cross.json"
rc=$?
[[ $rc -eq 3 ]] || fail "refused actions should exit 3, got $rc"
grep -q 'warmaster.command.no_return' "$tmp/cross.json" || fail "crossroads: no_return refusal expected"
grep -q 'warmaster.command.flyer_range' "$tmp/cross.json" || fail "crossroads: flyer_range refusal expected"
grep -qF '"combats":{"engagements":[{"units":["knights","wolves"]}]' "$tmp/cross.log" || fail "crossroads: the Combat phase fights the charge's combat"
[[ -s "$tmp/cross.log" ]] || fail "the log is written even when actions are refused"

# A whole battle, phase by phase: Command, Shooting, Combat for each side, to the turn limit.
out="$("$ref" warmaster play --battle "$sc/shooting.json" --seed 3 --actions "$sc/battle-actions/shooting-standoff.json" \
  --explain -o "$tmp/whole.log")" || fail "whole battle play exit"
grep -q 'action 1: now turn 1, side 0: combat phase' <<<"$out" || fail "whole battle: phases named: $out"
grep -q 'warmaster.shooting.hits: emp-handgunners' <<<"$out" || fail "whole battle: the Shooting phase reported: $out"
grep -q 'the game is over after turn 9: turn limit (8 turns)' <<<"$out" || fail "whole battle: the end and its reason: $out"
"$ref" warmaster replay --log "$tmp/whole.log" >/dev/null || fail "whole battle replay"

out="$("$ref" warmaster state --battle "$sc/command-crossroads.json" --legal --ask emp-general --unit halb-a)" \
  || fail "state exit"
grep -q '"type": "initiative"' <<<"$out" || fail "state: initiative among legal actions"
grep -q '"needed": 9' <<<"$out" || fail "state: halb-a needs 9: $out"

# --- bad input: exit 2, nothing written -------------------------------------------
head -c 200 "$tmp/game.log" >"$tmp/corrupt.log"
sed -n 2,100p "$tmp/game.log" >>"$tmp/corrupt.log"
err="$(cd "$root" && "$ref" warmaster replay --log "$tmp/corrupt.log" -o "$tmp/none.json" 2>&1 >/dev/null)"
rc=$?
[[ $rc -eq 2 ]] || fail "corrupt log should exit 2, got $rc"
grep -q 'corrupt.log line 1' <<<"$err" || fail "corrupt log names its line: $err"
[[ ! -e "$tmp/none.json" ]] || fail "nothing written for a corrupt log"

# A line whose roll was changed: refused with that line.
sed -n 2p "$tmp/game.log" >"$tmp/entry.json"
die=$("$json_tool" get "$tmp/entry.json" /rolls/0/value) || fail "no roll on line 2"
{
  sed -n 1p "$tmp/game.log"
  "$json_tool" edit "$tmp/entry.json" - set /rolls/0/value "$((7 - ${die:-0}))"
  sed -n '3,$p' "$tmp/game.log"
} >"$tmp/tampered.log"
err="$(cd "$root" && "$ref" warmaster replay --log "$tmp/tampered.log" 2>&1 >/dev/null)"
rc=$?
[[ $rc -eq 2 ]] || fail "tampered log should exit 2, got $rc"
grep -q 'tampered.log line 2' <<<"$err" || fail "tampered log names line 2: $err"

echo '[{"type": "order", "character": "emp-general"}]' >"$tmp/bad-actions.json"
err="$("$ref" warmaster play --battle "$sc/default.json" --actions "$tmp/bad-actions.json" -o "$tmp/bad.log" 2>&1 >/dev/null)"
rc=$?
[[ $rc -eq 2 ]] || fail "bad action should exit 2, got $rc"
grep -q 'bad-actions.json: \[0\]' <<<"$err" || fail "bad action names the file and the action: $err"
[[ ! -e "$tmp/bad.log" ]] || fail "nothing written for a bad action"

echo '[{"type": "teleport"}]' >"$tmp/bad2.json"
"$ref" warmaster play --battle "$sc/default.json" --actions "$tmp/bad2.json" -o "$tmp/bad2.log" >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "unknown action type should exit 2"
"$ref" warmaster odds --battle "$sc/default.json" --character nobody --unit emp-crossbow >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "unknown character should exit 2"
"$ref" warmaster odds >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "odds without a command value should exit 2"

if [[ $failures -gt 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "warmaster command: all checks passed"
