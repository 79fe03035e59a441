#!/usr/bin/env bash
# Fair play on the command line (docs/api.md, "The dice"; docs/deploy.md,
# "One server per data directory"): a second referee serve on a data
# directory another one serves exits 2 naming the first one's pid, and so
# does `referee games delete` under it, while list still reads; once the
# first stops, the directory is free again. A revealed log's seed and salt
# must give its commitment: replay says so, and a forged seed is exit 2
# naming it.
# Usage: serve_fair_play.sh <referee> <repo-root>
set -uo pipefail
ref="$1"; root="$2"
source "$(dirname "$0")/../support/cli_checks.sh"
data="$tmp/data"

"$ref" serve --port 0 --data "$data" >"$tmp/first.out" 2>"$tmp/first.err" &
first=$!
for _ in $(seq 100); do grep -q "web board is at" "$tmp/first.out" 2>/dev/null && break; sleep 0.1; done
check "the first server serves" grep -q "web board is at" "$tmp/first.out"
expect_exit 2 "a second server on the same data directory" timeout 20 "$ref" serve --port 0 --data "$data" --stop-after 1
check "it names the directory and the first one's pid ($(cat "$tmp/err"))" has "$tmp/err" "--data: $data is in use by another referee serve (pid $first)"
check "it says nothing of serving" test ! -s "$tmp/out"
expect_exit 2 "games delete under a running server" "$ref" games delete nope --data "$data"
check "refused for the lock ($(cat "$tmp/err"))" has "$tmp/err" "in use by another referee serve (pid $first)"
expect_exit 0 "games list reads beside it" "$ref" games list --data "$data"
kill "$first"; wait "$first" 2>/dev/null
expect_exit 0 "the directory is free once the first has stopped" timeout 20 "$ref" serve --port 0 --data "$data" --stop-after 0.2
expect_exit 2 "games delete of an unknown game, the lock free" "$ref" games delete nope --data "$data"
check "refused for the id" has "$tmp/err" "no game nope in"

# A finished game's log as the server reveals it: the seed, the salt, and the
# commitment the game showed from its start.
printf '%s\n' '{"type":"order","character":"emp-general","unit":"emp-halberd-1"}' quit |
  "$ref" warmaster play --battle "$root/scenarios/warmaster/default.json" --seed 77 --interactive -o "$tmp/game.jsonl" >/dev/null 2>&1
salt=0123456789abcdef0123456789abcdef
commit=$(printf 'referee-dice/1:%s:%s' "$salt" 77 | sha256sum | cut -d' ' -f1)
sed "1s/\"seed\":77,/\"seed\":77,\"seed_commitment\":\"$commit\",\"seed_salt\":\"$salt\",/" "$tmp/game.jsonl" >"$tmp/revealed.jsonl"
check "the header carries the commitment" grep -q "seed_commitment" "$tmp/revealed.jsonl"
expect_exit 0 "the revealed log replays" "$ref" warmaster replay --log "$tmp/revealed.jsonl"
check "the replay checks the commitment ($(head -c 300 "$tmp/out"))" has "$tmp/out" "\"commitment\": \"$commit\""
check "and says it matches" has "$tmp/out" '"matches_commitment": true'
sed "1s/\"seed\":77,/\"seed\":78,/" "$tmp/revealed.jsonl" >"$tmp/forged.jsonl"
expect_exit 2 "a forged seed" "$ref" warmaster replay --log "$tmp/forged.jsonl"
check "refused naming the seed ($(cat "$tmp/err"))" has "$tmp/err" "line 1.seed: seed 78 and salt $salt give the commitment"
sed "1s/\"seed\":77,/\"seed\":null,/; 1s/,\"seed_salt\":\"$salt\"//" "$tmp/revealed.jsonl" >"$tmp/withheld.jsonl"
expect_exit 2 "a log whose seed is withheld" "$ref" warmaster replay --log "$tmp/withheld.jsonl"
check "refused: withheld while the game is on" has "$tmp/err" "the seed is withheld while the game is on"
exit $fail
