#!/usr/bin/env bash
# bench_docs.sh <source dir>: the table of docs/benchmarks.md shows, row for
# row, the instruction counts of bench/instructions.txt (the baseline that
# scripts/bench-compare.sh measures against), so a figure changed in one is
# changed in the other (bench-compare.sh --update writes both).
set -euo pipefail
src="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# "program benchmark per figure", a line each, from each file.
awk '!/^#/ && NF == 6 { print $1, $2, $5, $6 }' "$src/bench/instructions.txt" | sort >"$tmp/baseline"
awk -F'|' '/<!-- instructions:begin -->/ { on = 1; next } /<!-- instructions:end -->/ { on = 0 }
  on && NF >= 7 && $2 ~ /`/ {
    for (i = 2; i <= 5; ++i) gsub(/[` ,]/, "", $i)
    print $2, $3, $4, $5 }' "$src/docs/benchmarks.md" | sort >"$tmp/docs"
[[ -s "$tmp/baseline" ]] || { echo "bench/instructions.txt has no figures"; exit 1; }
if ! diff -u "$tmp/baseline" "$tmp/docs" >"$tmp/diff"; then
  echo "docs/benchmarks.md and bench/instructions.txt disagree (- baseline, + docs):"
  grep '^[-+][^-+]' "$tmp/diff"
  exit 1
fi
echo "docs/benchmarks.md shows the $(wc -l <"$tmp/baseline") figures of bench/instructions.txt"
