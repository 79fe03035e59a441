#!/usr/bin/env bash
# End-to-end checks of `referee ancients ...`: answers, exit codes, and that
# bad input (exit 2) writes no output file.
set -u
referee=$1
root=$2
json_tool=$3
battle=$root/scenarios/ancients/centre_clash.json
river=$root/scenarios/ancients/river_crossing.json
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

# orders: Order Three Units Center gives 3 orders in the centre.
expect_exit 0 "orders" "$referee" ancients orders --battle "$battle" --side 0 --card order-three-center -o "$tmp/orders.json"
check "orders count" has "$tmp/orders.json" '"orders": 3'
check "orders lists the heavy cavalry" has "$tmp/orders.json" '"a_hc1"'
check "orders lists caesar detaching" has "$tmp/orders.json" '"detaches": true'
expect_exit 0 "orders --explain" "$referee" ancients orders --battle "$battle" --side 0 --card order-light-troops --explain -o "$tmp/orders.txt"
check "light troops order the command" has "$tmp/orders.txt" 'command: 5'

# destinations with an SVG.
expect_exit 0 "destinations" "$referee" ancients destinations --battle "$battle" --unit a_hc1 --svg "$tmp/hc.svg" -o "$tmp/dest.json"
check "eleven destinations" has "$tmp/dest.json" '"count": 11'
check "battle flag present" has "$tmp/dest.json" '"may_battle": true'
check "svg written" has "$tmp/hc.svg" '<svg'
check "svg highlights destinations" has "$tmp/hc.svg" 'id="destinations"'
expect_exit 0 "leader destinations" "$referee" ancients destinations --battle "$battle" --unit labienus -o "$tmp/ldest.json"
check "leader allowance" has "$tmp/ldest.json" '"allowance": 3'

# route: legal, and illegal with violations.
expect_exit 0 "legal route" "$referee" ancients route --battle "$battle" --unit a_hc1 --to 7,5 -o "$tmp/r1.json"
check "route legal" has "$tmp/r1.json" '"legal": true'
expect_exit 0 "illegal route" "$referee" ancients route --battle "$battle" --unit a_hi1 --to 6,4 -o "$tmp/r2.json"
check "route illegal" has "$tmp/r2.json" '"legal": false'
check "route rule" has "$tmp/r2.json" 'ancients.movement.allowance'
expect_exit 0 "off-board route" "$referee" ancients route --battle "$battle" --unit a_ch1 --to 13,8 -o "$tmp/r3.json"
check "off board rule" has "$tmp/r3.json" 'ancients.movement.off_board'
expect_exit 0 "river route" "$referee" ancients route --battle "$river" --unit r_hi1 --to 1,3 -o "$tmp/r4.json"
check "river is terrain" has "$tmp/r4.json" 'ancients.movement.terrain'

# Questions asked mid-turn, after some actions.
printf '{"actions":[{"type":"play_card","card":"order-three-center"},{"type":"order","units":["a_hi1","a_hc1"],"leaders":["caesar"]},{"type":"move","unit":"a_hc1","to":[7,5]}]}' >"$tmp/mid.json"
expect_exit 0 "mid-turn destinations" "$referee" ancients destinations --battle "$battle" --unit a_mi1 --actions "$tmp/mid.json" -o "$tmp/mid1.json"
check "unordered unit cannot move" has "$tmp/mid1.json" 'ancients.order.not_ordered'
expect_exit 0 "mid-turn leader" "$referee" ancients destinations --battle "$battle" --unit caesar --actions "$tmp/mid.json" -o "$tmp/mid2.json"
check "caesar may join the cavalry" has "$tmp/mid2.json" '"attaches_to": "a_hc1"'
expect_exit 0 "mid-turn route" "$referee" ancients route --battle "$battle" --unit a_hc1 --to 7,4 --actions "$tmp/mid.json" -o "$tmp/mid3.json"
check "moved unit moves once" has "$tmp/mid3.json" 'ancients.order.once'

# play and replay.
expect_exit 0 "play" "$referee" ancients play --battle "$battle" --listed-deal --actions "$root/tests/ancients/data/golden_actions.json" --seed 7 -o "$tmp/game.log"
check "log has a header" has "$tmp/game.log" '"system":"ancients"'
expect_exit 0 "replay" "$referee" ancients replay --log "$tmp/game.log" -o "$tmp/replay.json"
check "replay consistent" has "$tmp/replay.json" '"consistent": true'

# render.
expect_exit 0 "render" "$referee" ancients render --battle "$river" --sections -o "$tmp/river.svg"
check "render svg" has "$tmp/river.svg" 'id="units"'
check "render has a legend" has "$tmp/river.svg" 'id="legend"'
# The picture in docs/ancients-hexes.md is what the command draws now.
"$referee" ancients render --battle "$root/scenarios/ancients/empty_board.json" --sections -o "$tmp/board.svg"
check "docs/ancients-board.svg is up to date" cmp -s "$tmp/board.svg" "$root/docs/ancients-board.svg"
# render after a list of actions: played as `play` plays them, the heavy
# cavalry drawn on 7,5 (its unit box centred there) and the title counting them.
expect_exit 0 "render after actions" "$referee" ancients render --battle "$battle" --actions "$tmp/mid.json" -o "$tmp/mid.svg"
check "render after actions: title" has "$tmp/mid.svg" 'after 3 actions'
"$referee" ancients render --battle "$battle" -o "$tmp/start.svg"
check "render after actions differs from the start" test "$(cmp -s "$tmp/mid.svg" "$tmp/start.svg"; echo $?)" = 1
# An action the game refuses: exit 2, the error names its index, no file.
printf '{"actions":[{"type":"play_card","card":"order-three-center"},{"type":"order","units":["a_hi1"]},{"type":"move","unit":"a_hi1","to":[6,3]}]}' >"$tmp/refused.json"
expect_exit 2 "render with a refused action" "$referee" ancients render --battle "$battle" --actions "$tmp/refused.json" -o "$tmp/refused.svg"
check "refused action named by index" has "$tmp/err" 'actions\[2\]'
[ -e "$tmp/refused.svg" ] && { echo "FAIL: render wrote refused.svg"; fail=1; }

# Bad input: exit 2, a message naming the item, and no output file.
bad() {  # bad <name> <expected message fragment> <json_tool edit>...
  local name=$1 msg=$2; shift 2
  "$json_tool" edit "$battle" "$tmp/$name.json" "$@" || { echo "FAIL: $name: json_tool"; fail=1; return; }
  "$referee" ancients orders --battle "$tmp/$name.json" --side 0 --card order-three-center -o "$tmp/$name.out" 2>"$tmp/$name.err"
  local got=$?
  if [ "$got" != 2 ]; then echo "FAIL: $name exit $got"; fail=1; fi
  if [ -e "$tmp/$name.out" ]; then echo "FAIL: $name wrote output"; fail=1; fi
  if ! grep -q -- "$msg" "$tmp/$name.err"; then echo "FAIL: $name message"; cat "$tmp/$name.err"; fail=1; fi
}
bad offboard 'units\[0\].at: hex 12,1 is off the board' set /units/0/at '[12,1]'
bad twounits 'two units on one hex' copy /units/0/at /units/1/at
bad badclass 'unknown unit class "hoplite"' set /units/0/class '"hoplite"'
bad badcard 'unknown command card' set /players/0/hand/0 '"order-nine-units"'
bad orphan 'leader attached to nothing' set /leaders/0/attached_to '"ghost"'
bad missing 'units\[0\].side: missing field' remove /units/0/side
bad unknownfield 'units\[0\].speed: unknown field' set /units/0/speed 3
bad wrongtype 'units\[0\].blocks' set /units/0/blocks '"four"'

# The errors name the option the user typed, not the query's argument.
expect_exit 2 "unknown card on the command line" "$referee" ancients orders --battle "$battle" --side 0 --card order-nine -o "$tmp/x.json"
[ -e "$tmp/x.json" ] && { echo "FAIL: wrote x.json"; fail=1; }
check "orders names --card" has "$tmp/err" 'error: --card: unknown command card "order-nine"'
expect_exit 2 "unknown unit" "$referee" ancients destinations --battle "$battle" --unit nobody --svg "$tmp/y.svg" -o "$tmp/y.json"
[ -e "$tmp/y.svg" ] && { echo "FAIL: wrote y.svg"; fail=1; }
check "destinations names --unit" has "$tmp/err" 'error: --unit: no unit or leader "nobody"'
expect_exit 2 "destinations under an unknown card" "$referee" ancients destinations --battle "$battle" --unit a_hc1 --card nocard
check "destinations names --card" has "$tmp/err" 'error: --card: unknown command card "nocard"'
expect_exit 2 "route of an unknown unit" "$referee" ancients route --battle "$battle" --unit nobody --to 1,1
check "route names --unit" has "$tmp/err" 'error: --unit: no unit or leader "nobody"'
expect_exit 2 "route under an unknown card" "$referee" ancients route --battle "$battle" --unit a_hc1 --to 1,1 --card nocard
check "route names --card" has "$tmp/err" 'error: --card: unknown command card "nocard"'
if grep -q "arguments\." "$tmp/err"; then echo "FAIL: an error names an internal field"; fail=1; fi
printf '{"actions":[{"type":"play_card","card":"order-three-center"},{"type":"order","units":["a_hi1"]},{"type":"move","unit":"a_hi1","to":[6,3]}]}' >"$tmp/illegal.json"
# One policy for every system: an illegal action is refused with its rule, the
# refusal is logged, play goes on, and play exits 3.
expect_exit 3 "illegal action" "$referee" ancients play --battle "$battle" --listed-deal --actions "$tmp/illegal.json" -o "$tmp/illegal.log"
check "illegal action named" has "$tmp/out" '"index": 2'
check "illegal action's rule" has "$tmp/out" 'ancients.movement.allowance'
check "refusal in the log" has "$tmp/illegal.log" '"refused":\[{'
expect_exit 0 "a log with a refusal replays" "$referee" ancients replay --log "$tmp/illegal.log" -o "$tmp/illegal-replay.json"
# A malformed action is bad input: exit 2, nothing written.
printf '{"actions":[{"type":"play_card","card":"order-three-center"},{"type":"move","unit":"a_hi1","to":"6,3"}]}' >"$tmp/malformed.json"
expect_exit 2 "malformed action" "$referee" ancients play --battle "$battle" --actions "$tmp/malformed.json" -o "$tmp/malformed.log"
[ -e "$tmp/malformed.log" ] && { echo "FAIL: wrote malformed.log"; fail=1; }
check "malformed action named" has "$tmp/err" 'malformed.json: actions\[1\]'
head -c 200 "$tmp/game.log" >"$tmp/corrupt.log"
expect_exit 2 "corrupt log" "$referee" ancients replay --log "$tmp/corrupt.log" -o "$tmp/c.json"
[ -e "$tmp/c.json" ] && { echo "FAIL: wrote c.json"; fail=1; }

# The odds and targets queries answer what the game allows now: an evasion the
# game would not offer is a refusal with its rule (exit 0), not bad input; an
# unordered unit has no targets, with the game's reason.
lines=$root/scenarios/ancients/lines_engaged.json
printf '{"actions":[{"type":"play_card","card":"order-three-center"},{"type":"order","units":["a_f5","a_f6"]},{"type":"end_movement"}]}' >"$tmp/le-battle.json"
expect_exit 0 "odds of an evasion not offered" "$referee" ancients query odds --battle "$lines" --listed-deal \
  --actions "$tmp/le-battle.json" --args '{"unit": "a_f5", "target": "b_f5", "evading": true}' -o "$tmp/evade.json"
check "the evasion refused" has "$tmp/evade.json" '"legal": false'
check "the evasion rule" has "$tmp/evade.json" '"rule": "ancients.evade.eligible"'
expect_exit 0 "targets of an unordered unit" "$referee" ancients query targets --battle "$lines" --listed-deal \
  --actions "$tmp/le-battle.json" --args '{"unit": "a_f4"}' -o "$tmp/targets.json"
check "no targets" has "$tmp/targets.json" '"targets": \[\]'
check "the game's reason" has "$tmp/targets.json" '"rule": "ancients.battle.eligible"'
expect_exit 2 "odds with a malformed evading" "$referee" ancients query odds --battle "$lines" --listed-deal \
  --actions "$tmp/le-battle.json" --args '{"unit": "a_f5", "target": "b_f5", "evading": "yes"}'
check "names the field" has "$tmp/err" 'evading'

# Asked directly: the retreat paths of a unit for two flags, sight between two
# units, and whether one may evade another (docs/ancients.md, the queries).
# Warriors retreat 2 hexes a flag; b_f5 has its own line behind it, so all 4
# hexes of two flags are blocked: 4 blocks lost.
expect_exit 0 "retreats for two flags" "$referee" ancients query retreats --battle "$lines" --listed-deal \
  --args '{"unit": "b_f5", "flags": 2}' -o "$tmp/retreats.json"
check "the retreat rule" has "$tmp/retreats.json" '"rule": "ancients.flag.retreat"'
check "two hexes a flag" has "$tmp/retreats.json" '"hexes_per_flag": 2'
check "four blocks lost" has "$tmp/retreats.json" '"blocks_lost": 4'
expect_exit 0 "sight between two units" "$referee" ancients query sight --battle "$lines" --listed-deal \
  --args '{"from": "a_f5", "to": "b_f5"}' -o "$tmp/sight.json"
check "the sight rule" has "$tmp/sight.json" '"rule": "ancients.battle.sight"'
expect_exit 0 "an evasion asked directly" "$referee" ancients query evasion --battle "$lines" --listed-deal \
  --args '{"unit": "b_f5", "attacker": "a_f5"}' -o "$tmp/evasion.json"
check "a warrior may not evade" has "$tmp/evasion.json" '"reason": "a warrior may not evade a heavy infantry"'
expect_exit 2 "retreats for no flags" "$referee" ancients query retreats --battle "$lines" --listed-deal \
  --args '{"unit": "b_f5", "flags": 0}'
check "names the field" has "$tmp/err" 'flags'

[ "$fail" = 0 ] && echo "ancients cli: all checks passed"
exit $fail
