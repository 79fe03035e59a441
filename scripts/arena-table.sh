#!/usr/bin/env bash
# The table of docs/warmaster-opponent.md, "Measured strength": 200 seeded
# games (seeds 1 to 200) of each matchup on each bundled Warmaster battle,
# and on the pitched and default battles with their armies swapped (so the
# Orcs move first), with the arena's checks over every action.
# Usage: scripts/arena-table.sh [build dir, default build/release] [games, default 200]
# Prints Markdown rows; takes a few minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
games=${2:-200}
ref=$build/apps/referee/referee
json=$build/tests/json_tool
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
swap() {  # swap IN OUT: the battle with its two armies listed the other way round
  "$json" edit "$1" "$2" copy /armies/0 /swapped0 copy /armies/1 /armies/0 copy /swapped0 /armies/1 remove /swapped0
}
row() {  # row LABEL FILE SIDE0 SIDE1
  local label=$1 file=$2 s0=$3 s1=$4 out=$tmp/arena.json
  "$ref" warmaster arena --battle "$file" --games "$games" --side0 "$s0" --side1 "$s1" -o "$out"
  local w0 w1 d turns shots flags charges askew fights unbonused orders blunders a0 a1
  w0=$("$json" get "$out" /wins/0); w1=$("$json" get "$out" /wins/1); d=$("$json" get "$out" /draws)
  turns=$("$json" get "$out" /mean_turns)
  shots=$("$json" get "$out" '/audits/shots at engaged units')
  flags=$("$json" get "$out" '/audits/engaged flags that disagree with the stands')
  charges=$("$json" get "$out" '/audits/charges that ended in contact (a count)')
  askew=$("$json" get "$out" '/audits/charges in contact not lined up edge to edge')
  fights=$("$json" get "$out" '/audits/fights of units with a joined character (a count)')
  unbonused=$("$json" get "$out" '/audits/fights of units with a joined character without its bonus')
  orders=$("$json" get "$out" '/audits/Hero and Wizard orders (a count)')
  blunders=$("$json" get "$out" '/audits/Hero and Wizard blunders (a count)')
  a0=$("$json" get "$out" /armies/0); a1=$("$json" get "$out" /armies/1)
  printf '| %s | %s (%s) | %s (%s) | %s (%s%%) | %s (%s%%) | %s | %.2f | %s / %s | %s / %s | %s / %s | %s / %s |\n' "$label" "$s0" "${a0//\"/}" "$s1" \
    "${a1//\"/}" "$w0" "$(awk "BEGIN{printf \"%.1f\", 100*$w0/$games}")" "$w1" \
    "$(awk "BEGIN{printf \"%.1f\", 100*$w1/$games}")" "$d" "$turns" "$shots" "$flags" "$charges" "$askew" \
    "$fights" "$unbonused" "$orders" "$blunders"
}
echo "| Battle | Side 0 | Side 1 | Side 0 wins | Side 1 wins | Draws | Mean turns | Shots at engaged units / wrong engaged flags | Charges / not lined up | Fights with a joined character / without its bonus | Hero and Wizard orders / blunders |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for battle in pitched-battle default shooting combat; do
  f=scenarios/warmaster/$battle.json
  for m in "opponent random" "random opponent" "opponent opponent" "random random"; do
    # shellcheck disable=SC2086
    row "$battle.json" "$f" $m
  done
  if [[ $battle == pitched-battle || $battle == default ]]; then
    swap "$f" "$tmp/swapped.json"
    for m in "opponent random" "random opponent" "opponent opponent"; do
      # shellcheck disable=SC2086
      row "$battle, swapped" "$tmp/swapped.json" $m
    done
  fi
done
