#!/usr/bin/env bash
# The tests' fourth system, tic-tac-toe, registered with one line
# (tests/support/with_tictactoe.hpp), is found by every command the program
# builds from the registry: `referee --help`, `referee tictactoe
# play|replay|state|query|rules`, and nothing in apps/ names it.
# Usage: cli.sh <referee_with_tictactoe> <json_tool>
set -u
referee=$1
json=$2
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"
value() { "$json" get "$1" "$2"; }
equals() {  # equals <file> <pointer> <expected compact JSON>
  local got; got=$(value "$1" "$2")
  [ "$got" = "$3" ] || { echo "  $1 $2: got $got, wanted $3"; return 1; }
}

# --help lists it beside the three real systems, with its title and summary.
expect_exit 0 "referee --help" "$referee" --help
check "help lists tictactoe" has "$tmp/out" 'tictactoe *Tic-tac-toe: three in a row on a 3 x 3 board (tests only)'
for s in warmaster ancients blightmeer; do check "help still lists $s" has "$tmp/out" "^ *$s "; done
expect_exit 0 "referee tictactoe --help" "$referee" tictactoe --help
for c in play replay state query rules; do check "tictactoe has $c" has "$tmp/out" "^ *$c "; done
# No opponent, so no arena; no picture, so no --svg-dir.
check "no arena without an opponent" bash -c "! grep -q '^ *arena ' '$tmp/out'"

# rules: the static catalogue, read without a battle.
expect_exit 0 "tictactoe rules" "$referee" tictactoe rules -o "$tmp/rules.json"
check "rules name the system" equals "$tmp/rules.json" /system '"tictactoe"'
check "three rules" equals "$tmp/rules.json" /rules/2/id '"tictactoe.occupied"'
expect_exit 0 "tictactoe rules --explain" "$referee" tictactoe rules --explain
check "explain counts them" has "$tmp/out" '^Tic-tac-toe: 3 rules'

# A battle and a plan: toss (seed 1), then X and O mark, then O marks a taken cell.
echo '{"name": "An empty board"}' >"$tmp/board.json"
echo '[{"type": "toss"}, {"type": "mark", "cell": 4}, {"type": "mark", "cell": 0}]' >"$tmp/plan.json"
expect_exit 0 "tictactoe play" "$referee" tictactoe play --battle "$tmp/board.json" --actions "$tmp/plan.json" \
  --dice 2 -o "$tmp/game.jsonl"
check "summary names the system" has "$tmp/out" '"system": "tictactoe"'
check "three actions played" has "$tmp/out" '"actions": 3'
check "log starts with the system" has "$tmp/game.jsonl" '"system":"tictactoe"'
echo '[{"type": "toss"}, {"type": "mark", "cell": 4}, {"type": "mark", "cell": 4}]' >"$tmp/bad.json"
expect_exit 3 "a refused mark exits 3" "$referee" tictactoe play --battle "$tmp/board.json" --actions "$tmp/bad.json" \
  --dice 2 -o "$tmp/bad.jsonl"
check "the refusal cites the rule" has "$tmp/out" 'tictactoe.occupied'

# replay: the log carries its battle.
expect_exit 0 "tictactoe replay" "$referee" tictactoe replay --log "$tmp/game.jsonl" -o "$tmp/replay.json"
check "replay consistent" equals "$tmp/replay.json" /consistent true
check "X marked the centre (toss 2: X starts)" equals "$tmp/replay.json" /state/cells/4 1
check "O marked a corner" equals "$tmp/replay.json" /state/cells/0 2

# state: the toss's legal action with its exact odds.
expect_exit 0 "tictactoe state --legal" "$referee" tictactoe state --battle "$tmp/board.json" --legal -o "$tmp/state.json"
check "the toss is the one legal action" equals "$tmp/state.json" /legal/0/action '{"type":"toss"}'
check "X starts on 1-3: 3 of 6" equals "$tmp/state.json" /legal/0/odds/0/chance/fraction '"3/6"'

# query: the list (known without a battle) and an answer.
expect_exit 0 "tictactoe query --list" "$referee" tictactoe query --list -o "$tmp/list.json"
check "free_cells listed" equals "$tmp/list.json" /0/name '"free_cells"'
expect_exit 0 "tictactoe query free_cells" "$referee" tictactoe query free_cells --log "$tmp/game.jsonl" -o "$tmp/free.json"
check "seven cells free" equals "$tmp/free.json" /free '[1,2,3,5,6,7,8]'
expect_exit 2 "an unknown query is bad input" "$referee" tictactoe query nothing --battle "$tmp/board.json"

exit $fail
