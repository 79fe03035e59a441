#!/usr/bin/env bash
# End-to-end: referee games list | export | delete over a games store holding
# a game played with `referee warmaster play` (put there by store_tool, as
# referee serve keeps it); the export replays; a bad --data or an unknown id
# is exit 2 naming it.
# Usage: games_cli.sh <referee> <repo-root> <json_tool> <store_tool>
set -uo pipefail
ref="$1"; root="$2"; json="$3"; store="$4"
source "$(dirname "$0")/cli_checks.sh"
data="$tmp/data"

printf '%s\n' '{"type":"end_phase"}' '{"type":"end_phase"}' '{"type":"end_phase"}' quit |
  "$ref" warmaster play --battle "$root/scenarios/warmaster/default.json" --interactive -o "$tmp/game.jsonl" >/dev/null 2>&1
check "the game's log: a header and three entries" test "$(wc -l <"$tmp/game.jsonl")" = 4
# g1: two entries played, one left to redo; g2: all three played.
check "store_tool puts g1" "$store" "$data" g1 "$tmp/game.jsonl" 2
check "store_tool puts g2" "$store" "$data" g2 "$tmp/game.jsonl" 3

expect_exit 0 "games list" "$ref" games list --data "$data"
check "one line per game" test "$(wc -l <"$tmp/out")" = 2
check "g1's line: id, system, battle, played/entries, an ISO date" \
  grep -qE '^g1  warmaster  .*default\.json  2/3  [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$' "$tmp/out"
expect_exit 0 "games list --json" "$ref" games list --data "$data" --json
cp "$tmp/out" "$tmp/list.json"
check "--json: two games" test "$("$json" get "$tmp/list.json" "" | grep -o '"id":' | wc -l)" = 2
ids="$("$json" get "$tmp/list.json" /0/id)$("$json" get "$tmp/list.json" /1/id)"
check "--json: both ids ($ids)" test "$ids" = '"g1""g2"' -o "$ids" = '"g2""g1"'
check "--json: g1's position and entries" "$json" equal "$tmp/list.json" "/$([[ $ids == '"g1"'* ]] && echo 0 || echo 1)/position" <(echo 2) ""

expect_exit 0 "games export g1" "$ref" games export g1 --data "$data"
cp "$tmp/out" "$tmp/g1.jsonl"
check "the export is the header and the two entries played" cmp "$tmp/g1.jsonl" <(head -n 3 "$tmp/game.jsonl")
expect_exit 0 "the export replays" "$ref" warmaster replay --log "$tmp/g1.jsonl"
check "the replay has the two entries" "$json" equal "$tmp/out" /entries <(echo 2) ""
expect_exit 0 "games export g2" "$ref" games export g2 --data "$data"
check "g2's export is the whole log" cmp "$tmp/out" "$tmp/game.jsonl"

expect_exit 2 "an unknown id" "$ref" games export nope --data "$data"
check "the error names the id" has "$tmp/err" 'no game nope in'
check "nothing written" test ! -s "$tmp/out"
expect_exit 2 "a directory with no store" "$ref" games list --data "$tmp"
check "the error says so" has "$tmp/err" "holds no games store"
expect_exit 2 "a --data that is no directory" "$ref" games list --data "$tmp/game.jsonl"
check "the error names it" has "$tmp/err" "game.jsonl is not a directory"

expect_exit 0 "games delete g1" "$ref" games delete g1 --data "$data"
expect_exit 0 "games list after the delete" "$ref" games list --data "$data"
check "only g2 is left" grep -q '^g2 ' "$tmp/out"
check "only one line" test "$(wc -l <"$tmp/out")" = 1
expect_exit 2 "deleting g1 again" "$ref" games delete g1 --data "$data"
check "the error names the id" has "$tmp/err" 'no game g1 in'
exit $fail
