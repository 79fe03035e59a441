#!/usr/bin/env bash
# End-to-end checks of `referee blightmeer ...`: answers, exit codes, and no
# output file written on bad input. Usage: blightmeer.sh <referee> <repo-root> <json_tool>
set -u
referee=$1
root=$2
json_tool=$3
town=$root/scenarios/blightmeer/town.json
ruin=$root/scenarios/blightmeer/ruin.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_exit() {  # expect_exit CODE description -- command...
  local want=$1 what=$2
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "$what: exit $got, expected $want ($(head -c 300 "$tmp/err"))"
}
contains() {  # contains FILE TEXT description
  grep -qF -- "$2" "$1" || fail "$3: '$2' not found in $(head -c 400 "$1")"
}

# A legal climb onto the inn: 13/20 for the captain's Agility 8.
cat >"$tmp/climb.json" <<'JSON'
{"unit": "captain", "mode": "move", "path": [
  {"type": "walk", "to": [3.5, 7.5]},
  {"type": "climb", "to": [4.5, 7.5, 3]},
  {"type": "walk", "to": [5.5, 7.5]}]}
JSON
expect_exit 0 "check" -- "$referee" blightmeer check --battle "$town" --move "$tmp/climb.json"
contains "$tmp/out" '"legal": true' "check legal"
contains "$tmp/out" '"fraction": "13/20"' "check chance"
contains "$tmp/out" '"spent": 5.5' "check spent"
expect_exit 0 "check --explain" -- "$referee" blightmeer check --battle "$town" --move "$tmp/climb.json" --explain
contains "$tmp/out" "Legal move by captain" "explain"

# An illegal move is still an answer: exit 0, legal false, with the rule id.
cat >"$tmp/run.json" <<'JSON'
{"unit": "bandit", "mode": "run", "path": [{"type": "walk", "to": [19, 22]}]}
JSON
expect_exit 0 "illegal check" -- "$referee" blightmeer check --battle "$town" --move "$tmp/run.json"
contains "$tmp/out" '"legal": false' "illegal"
contains "$tmp/out" 'blightmeer.run.treasure' "treasure rule"

# Route and reach.
expect_exit 0 "route" -- "$referee" blightmeer route --battle "$town" --unit captain --to 8,8
contains "$tmp/out" '"risk_free"' "route risk-free"
contains "$tmp/out" '"type": "ladder"' "route uses the ladder"
contains "$tmp/out" '"with_checks"' "route with checks"
expect_exit 0 "reach" -- "$referee" blightmeer reach --battle "$town" --unit elf --svg "$tmp/reach.svg"
contains "$tmp/out" '"no_check"' "reach counts"
contains "$tmp/reach.svg" '<svg' "reach svg"
contains "$tmp/reach.svg" 'id="legend"' "reach svg legend"
contains "$tmp/reach.svg" 'id="reach-levels"' "reach svg marks the level of each cell"
expect_exit 0 "reach --explain" -- "$referee" blightmeer reach --battle "$town" --unit elf --explain
contains "$tmp/out" 'cells on inn (3.0 in up): x ' "reach says where the cells are"
contains "$tmp/out" 'cells on the ground: x ' "reach names the ground"
# A route longer than one turn's move (the captain's Move is 6): split by turn.
expect_exit 0 "long route" -- "$referee" blightmeer route --battle "$town" --unit captain --to 18,20 --explain
contains "$tmp/out" "longer than one turn's move: 4 turns" "route split by turn"
contains "$tmp/out" "turn 1: steps 0-1, 6.0 in of 6.0 in; stops at" "turn 1 stops where its move runs out"
contains "$tmp/out" "part-way along step 2" "turn 1 stops part-way along a walk"
expect_exit 0 "long route json" -- "$referee" blightmeer route --battle "$town" --unit captain --to 18,20
contains "$tmp/out" '"turns"' "route json turns"
expect_exit 0 "route --svg" -- "$referee" blightmeer route --battle "$town" --unit captain --to 18,20 --svg "$tmp/route.svg"
contains "$tmp/route.svg" 'id="route"' "route svg"
contains "$tmp/route.svg" '>T1 stops<' "route svg marks where turn 1 stops"
expect_exit 0 "render" -- "$referee" blightmeer render --battle "$ruin" -o "$tmp/ruin.svg"
contains "$tmp/ruin.svg" 'gallery' "render svg"
contains "$tmp/ruin.svg" 'id="grid"' "render grid"
# The pictures in docs/blightmeer.md are what the commands draw now.
"$referee" blightmeer render --battle "$town" -o "$tmp/town.svg"
cmp -s "$tmp/town.svg" "$root/docs/blightmeer-town.svg" || fail "docs/blightmeer-town.svg is out of date (see docs/blightmeer.md)"
"$referee" blightmeer reach --battle "$town" --unit elf --svg "$tmp/elf.svg" >/dev/null
cmp -s "$tmp/elf.svg" "$root/docs/blightmeer-reach.svg" || fail "docs/blightmeer-reach.svg is out of date (see docs/blightmeer.md)"
"$referee" blightmeer route --battle "$town" --unit captain --to 18,20 --svg "$tmp/captain.svg" >/dev/null
cmp -s "$tmp/captain.svg" "$root/docs/blightmeer-route.svg" || fail "docs/blightmeer-route.svg is out of date (see docs/blightmeer.md)"
contains "$tmp/ruin.svg" '>36&quot;</text>' "render inch marks"

# Resolve two moves with seeded dice (the Move phase alone: no turn rules).
cat >"$tmp/moves.json" <<'JSON'
{"moves": [
  {"unit": "captain", "mode": "move", "path": [
    {"type": "walk", "to": [3.5, 7.5]}, {"type": "climb", "to": [4.5, 7.5, 3]}]},
  {"unit": "elf", "mode": "move", "path": [{"type": "jump_down", "to": [11, 10.8]}]}]}
JSON
expect_exit 0 "resolve" -- "$referee" blightmeer resolve --battle "$town" --move "$tmp/moves.json" --seed 5
contains "$tmp/out" '"results"' "resolve answer"
cp "$tmp/out" "$tmp/resolved.json"
# Same seed, same answer.
"$referee" blightmeer resolve --battle "$town" --move "$tmp/moves.json" --seed 5 >"$tmp/again.json" 2>/dev/null
cmp -s "$tmp/resolved.json" "$tmp/again.json" || fail "same seed gave a different answer"
# Scripted dice: a 20 passes the captain's climb (Agility 8), a 1 fails it.
expect_exit 0 "resolve --dice 20" -- "$referee" blightmeer resolve --battle "$town" --move "$tmp/moves.json" --dice 20,20
contains "$tmp/out" '"value": 20' "scripted die used"
expect_exit 2 "resolve --dice runs out" -- "$referee" blightmeer resolve --battle "$town" --move "$tmp/moves.json" --dice 20
contains "$tmp/err" 'dice script ran out' "spent script named"

# The same moves as a game: play writes the log, replay checks every roll.
cat >"$tmp/actions.json" <<'JSON'
{"actions": [
  {"type": "move", "unit": "captain", "mode": "move", "path": [
    {"type": "walk", "to": [3.5, 7.5]}, {"type": "climb", "to": [4.5, 7.5, 3]}]},
  {"type": "move", "unit": "elf", "mode": "move", "path": [{"type": "jump_down", "to": [11, 10.8]}]},
  {"type": "move", "unit": "elf", "mode": "move", "path": [{"type": "walk", "to": [12, 10.8]}]},
  {"type": "end_turn"}]}
JSON
"$referee" blightmeer play --battle "$town" --actions "$tmp/actions.json" --seed 5 -o "$tmp/game.log" >"$tmp/play.json" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "play with a refused action exits 3, got $rc"
contains "$tmp/play.json" 'blightmeer.move.once_per_turn' "second move of the elf refused"
[ "$(wc -l <"$tmp/game.log")" -eq 5 ] || fail "log should have a header and 4 entries"
expect_exit 0 "replay" -- "$referee" blightmeer replay --log "$tmp/game.log"
contains "$tmp/out" '"consistent": true' "replay matches"
# A tampered log is refused naming the line.
sed '2s/"value":[0-9]*/"value":21/' "$tmp/game.log" >"$tmp/bad.log"
expect_exit 2 "tampered log" -- "$referee" blightmeer replay --log "$tmp/bad.log"
contains "$tmp/err" 'bad.log line 2' "tampered line named"

# Bad input: exit 2, a message naming the item, and nothing written.
edit() {  # edit <name> <json_tool edit>...: a copy of the town with one change
  local name=$1; shift
  "$json_tool" edit "$town" "$tmp/$name.json" "$@" || fail "json_tool: $name"
}
edit bowtie set /surfaces/0/footprint '[[0,0],[4,4],[4,0],[0,4]]'
edit ladder set /ladders/0/top '[11.5,6,2]'
edit wall set /units/0/position '[6,6,0]'
edit air set /units/0/position '[2,2,2]'
edit type set /units/0/move '"six"'
edit unknown set /units/0/speed 6
for case in "bowtie:surfaces[0].footprint" "ladder:ladders[0].top" "wall:inside a wall" "air:mid-air" \
            "type:units[0].move" "unknown:units[0].speed"; do
  file=${case%%:*}
  text=${case#*:}
  expect_exit 2 "bad $file" -- "$referee" blightmeer resolve --battle "$tmp/$file.json" --move "$tmp/moves.json" --seed 1 -o "$tmp/$file.log"
  contains "$tmp/err" "$text" "bad $file message"
  [ ! -e "$tmp/$file.log" ] || fail "bad $file: a log was written"
  expect_exit 2 "bad $file render" -- "$referee" blightmeer render --battle "$tmp/$file.json" -o "$tmp/$file.svg"
  [ ! -e "$tmp/$file.svg" ] || fail "bad $file: an SVG was written"
done
printf '{"units": [{"id": "a", "position": [1e999, 1, 0]}]}' >"$tmp/huge.json"
expect_exit 2 "huge number" -- "$referee" blightmeer render --battle "$tmp/huge.json" -o "$tmp/huge.svg"
[ ! -e "$tmp/huge.svg" ] || fail "huge: an SVG was written"
cat >"$tmp/gap.json" <<'JSON'
{"unit": "captain", "path": [{"type": "walk", "to": [3.5, 8]}, {"type": "walk", "from": [9, 9, 0], "to": [3.5, 9]}]}
JSON
expect_exit 2 "step that does not connect" -- "$referee" blightmeer check --battle "$town" --move "$tmp/gap.json" -o "$tmp/gap.out"
contains "$tmp/err" "path[1].from" "gap message"
[ ! -e "$tmp/gap.out" ] || fail "gap: an answer was written"
expect_exit 2 "unknown unit" -- "$referee" blightmeer reach --battle "$town" --unit nobody --svg "$tmp/nobody.svg"
[ ! -e "$tmp/nobody.svg" ] || fail "unknown unit: an SVG was written"
expect_exit 2 "bad --to" -- "$referee" blightmeer route --battle "$town" --unit captain --to 8,x
expect_exit 2 "--to inside a wall" -- "$referee" blightmeer route --battle "$town" --unit captain --to 8,8,1

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "blightmeer CLI: all checks passed"
