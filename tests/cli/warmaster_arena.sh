#!/usr/bin/env bash
# End-to-end: referee warmaster arena (seeded games between the built-in
# opponent and a random legal player, through the game interface), and exit 2
# on bad input. Usage: warmaster_arena.sh <path-to-referee> <repo-root> <json_tool>
set -uo pipefail
ref="$1"
root="$2"
json_tool="$3"
sc="$root/scenarios/warmaster"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Four games of the opponent (Orcs, side 1) against the random player on the
# default battle: every game finishes, no action is refused, and the random
# player wins none of them.
"$ref" warmaster arena --battle "$sc/default.json" --games 4 --seed 1 --side0 random --side1 opponent \
  -o "$tmp/arena.json" || fail "arena exit $?"
[[ "$("$json_tool" get "$tmp/arena.json" /games)" == 4 ]] || fail "4 games played"
[[ "$("$json_tool" get "$tmp/arena.json" /unfinished)" == 0 ]] || fail "every game finished"
[[ "$("$json_tool" get "$tmp/arena.json" /refused)" == 0 ]] || fail "no action refused"
[[ "$("$json_tool" get "$tmp/arena.json" /wins/0)" == 0 ]] || fail "the random player won a game"
[[ "$("$json_tool" get "$tmp/arena.json" /per_game/0/seed)" == 1 ]] || fail "game 0 plays seed 1"

# The same seeds give the same games; the text form names both sides.
"$ref" warmaster arena --battle "$sc/default.json" --games 4 --seed 1 --side0 random --side1 opponent \
  -o "$tmp/again.json" || fail "arena exit $?"
"$json_tool" equal "$tmp/arena.json" /per_game "$tmp/again.json" /per_game || fail "the same seeds gave other games"
out="$("$ref" warmaster arena --battle "$sc/combat.json" --games 2 --side0 opponent --side1 opponent --explain)" ||
  fail "arena --explain exit $?"
grep -q 'side 0 (Empire, opponent)' <<<"$out" || fail "text names side 0: $out"
grep -q 'side 1 (Orcs, opponent)' <<<"$out" || fail "text names side 1: $out"

# --svg-dir: a picture of each game's end, named by its seed and captioned
# with the result.
"$ref" warmaster arena --battle "$sc/pitched-battle.json" --games 2 --seed 5 --svg-dir "$tmp/ends" \
  -o "$tmp/ends.json" || fail "arena --svg-dir exit $?"
# The caption is wrapped onto several lines: read the picture's words in order.
words() { sed -e 's/<[^>]*>/ /g' "$1" | tr -s ' \n' '  '; }
for seed in 5 6; do
  [[ -s "$tmp/ends/game-$seed.svg" ]] || fail "no picture of game $seed"
  grep -q "seed $seed, turn" <<<"$(words "$tmp/ends/game-$seed.svg")" || fail "game $seed: the caption does not name it"
done
reason5="$("$json_tool" get "$tmp/ends.json" /per_game/0/reason)"
reason5="${reason5:1:${#reason5}-2}"
grep -qF "$reason5" <<<"$(words "$tmp/ends/game-5.svg")" || fail "game 5's picture does not give its result ($reason5)"

expect_2() {
  local what="$1"
  shift
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local code=$?
  [[ $code -eq 2 ]] || fail "$what: exit $code, want 2"
  grep -q . "$tmp/err.txt" || fail "$what: no error message"
}
expect_2 "unknown player" "$ref" warmaster arena --battle "$sc/default.json" --side0 wizard
grep -q 'side0' "$tmp/err.txt" || fail "unknown player: the error names --side0"
expect_2 "no games" "$ref" warmaster arena --battle "$sc/default.json" --games 0
expect_2 "missing battle" "$ref" warmaster arena --battle "$tmp/none.json"
touch "$tmp/a-file"
expect_2 "svg folder is a file" "$ref" warmaster arena --battle "$sc/pitched-battle.json" --games 1 --svg-dir "$tmp/a-file/x"
grep -q 'svg-dir' "$tmp/err.txt" || fail "bad --svg-dir: the error names it"
# A move the check accepts with its reasons written must not be refused when
# applied without them: in this game the opponents' 115th action was a half-pace
# move round a friendly unit that the quicker check, searching routes only up
# to the allowance, refused (a verdict that depended on whether it was explained).
"$ref" warmaster arena --battle "$sc/pitched-battle.json" --games 1 --seed 47 --side0 opponent --side1 opponent \
  >"$tmp/pitched.json" || fail "pitched battle arena exit $?"
grep -q '"refused": 0,' "$tmp/pitched.json" || fail "pitched battle, seed 47: an action was refused: $(grep -A3 '"refused": {' "$tmp/pitched.json" | head -5)"
grep -q '"unfinished": 0,' "$tmp/pitched.json" || fail "pitched battle, seed 47: unfinished"

# Systems without a built-in opponent have no arena.
expect_2 "ancients has no arena" "$ref" ancients arena --battle x.json

[[ $failures -eq 0 ]] || exit 1
echo "warmaster arena: all passed"
