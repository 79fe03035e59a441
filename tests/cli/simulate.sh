#!/usr/bin/env bash
# End-to-end: referee <system> simulate (seeded games over worker processes):
# 1 and 4 workers write byte-identical JSON lines and summaries, in index
# order; a first-phase run counts Warmaster's orders; bad input exits 2 naming
# the field. Usage: simulate.sh <path-to-referee> <repo-root> <json_tool>
set -uo pipefail
ref="$1"
root="$2"
json_tool="$3"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Whole games, the opponent on both sides, on 1 and on 4 workers.
for k in 1 4; do
  "$ref" warmaster simulate --battle "$sc/pitched-battle.json" --games 12 --seed 7 --side0 opponent \
    --side1 opponent --workers "$k" --results "$tmp/games$k.jsonl" --summary "$tmp/summary$k.json" \
    --plot "$tmp/plot$k.svg" -o "$tmp/answer$k.json" || fail "simulate --workers $k exit $?"
done
cmp -s "$tmp/games1.jsonl" "$tmp/games4.jsonl" || fail "1 and 4 workers wrote different lines"
cmp -s "$tmp/summary1.json" "$tmp/summary4.json" || fail "1 and 4 workers wrote different summaries"
cmp -s "$tmp/plot1.svg" "$tmp/plot4.svg" || fail "1 and 4 workers drew different charts"
[[ "$(wc -l <"$tmp/games1.jsonl")" == 12 ]] || fail "one line a game"
# Line i is game i, in order, each with its own seed.
i=0
while IFS= read -r line; do
  printf '%s' "$line" >"$tmp/line.json"
  [[ "$("$json_tool" get "$tmp/line.json" /index)" == "$i" ]] || fail "line $i is game $i"
  "$json_tool" get "$tmp/line.json" /seed >>"$tmp/seeds.txt"
  [[ "$("$json_tool" get "$tmp/line.json" /over)" == true ]] || fail "game $i finished"
  i=$((i + 1))
done <"$tmp/games1.jsonl"
[[ "$("$json_tool" get "$tmp/summary1.json" /games)" == 12 ]] || fail "the summary counts 12 games"
[[ "$("$json_tool" get "$tmp/summary1.json" /refused)" == 0 ]] || fail "no action refused"
[[ "$("$json_tool" get "$tmp/answer4.json" /workers)" == 4 ]] || fail "the answer says 4 workers"
grep -q '<svg' "$tmp/plot1.svg" || fail "the plot is SVG"
[[ "$(sort -u "$tmp/seeds.txt" | wc -l)" == 12 ]] || fail "12 games, 12 seeds: $(cat "$tmp/seeds.txt")"
# A line's seed replays its game: arena --seed (that number) --games 1.
sed -n 4p "$tmp/games1.jsonl" >"$tmp/line.json"
seed3=$("$json_tool" get "$tmp/line.json" /seed)
"$ref" warmaster arena --battle "$sc/pitched-battle.json" --games 1 --seed "$seed3" --side0 opponent \
  --side1 opponent -o "$tmp/arena.json" || fail "arena --seed $seed3 exit $?"
for field in winner turn reason; do
  [[ "$("$json_tool" get "$tmp/arena.json" "/per_game/0/$field")" == "$("$json_tool" get "$tmp/line.json" "/$field")" ]] ||
    fail "game 3's $field differs from arena --seed $seed3's"
done
# Runs from neighbouring master seeds share no game.
"$ref" warmaster simulate --battle "$sc/pitched-battle.json" --games 1 --seed 8 --side0 opponent \
  --side1 opponent --workers 1 --results "$tmp/one.jsonl" -o "$tmp/one.json" || fail "simulate --seed 8 exit $?"
"$json_tool" get "$tmp/one.jsonl" /seed >"$tmp/seed8.txt" || fail "no seed in seed 8's line"
! grep -qxF -f "$tmp/seed8.txt" "$tmp/seeds.txt" || fail "master seeds 7 and 8 share a game"

# First phases: random Command phases of the default battle; every one stops
# in the Shooting phase, and the orders given are counted as passed or failed.
"$ref" warmaster simulate --battle "$sc/default.json" --games 20 --mode phase --workers 2 \
  --summary "$tmp/phases.json" --explain >"$tmp/phases.txt" || fail "simulate --mode phase exit $?"
[[ "$("$json_tool" get "$tmp/phases.json" /mode)" == '"phase"' ]] || fail "phase mode recorded"
orders=$(("$("$json_tool" get "$tmp/phases.json" /passed)" + "$("$json_tool" get "$tmp/phases.json" /failed)"))
((orders >= 20)) || fail "at least an order a phase: $orders"
grep -q '20 phases on' "$tmp/phases.txt" || fail "text: $(cat "$tmp/phases.txt")"

# Another system through the same command, with its built-in opponent.
"$ref" ancients simulate --battle "$root/scenarios/ancients/centre_clash.json" --games 4 --workers 2 --side0 opponent \
  -o "$tmp/ancients.json" || fail "ancients simulate exit $?"

# Bad input: exit 2, the field named, nothing written.
expect_2() {
  local field="$1"
  shift
  "$ref" "$@" --results "$tmp/bad.jsonl" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [[ $rc == 2 ]] || fail "exit $rc for $field: $*"
  grep -q -- "$field" "$tmp/err" || fail "error names $field: $(cat "$tmp/err")"
  [[ ! -e "$tmp/bad.jsonl" ]] || fail "results written on bad input ($field)"
}
expect_2 --side1 warmaster simulate --battle "$sc/default.json" --games 2 --side1 clever
expect_2 --mode warmaster simulate --battle "$sc/default.json" --games 2 --mode turn
expect_2 --workers warmaster simulate --battle "$sc/default.json" --games 2 --workers 0
expect_2 --games warmaster simulate --battle "$sc/default.json" --games 0
expect_2 --side0 blightmeer simulate --battle "$root/scenarios/blightmeer/ruin.json" --side0 opponent
expect_2 simulate.sh warmaster simulate --battle "$root/tests/cli/simulate.sh"

if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "simulate: all passed"
