#!/usr/bin/env bash
# Instruction counts of the benchmarks against a saved baseline, so that a
# change that makes the engine slower shows it, whatever the host's load.
#
# Usage: scripts/bench-compare.sh [--update] [--only REGEX] [build dir] [baseline file]
#   build dir      a Release build with the benchmarks (default build/release)
#   baseline file  default bench/instructions.txt
#   --only REGEX   measure only the benchmarks whose names match
#   --update       write the figures measured into the baseline file (and,
#                  for bench/instructions.txt, into docs/benchmarks.md's table)
#
# Each line of the baseline names a benchmark program, a benchmark, two
# iteration counts, what the figure is counted per, and the figure:
#   warmaster_move_bench  BM_WarmasterCheckDirectMove/160  10 110  iteration  22621
#   warmaster_opponent_bench  BM_WarmasterOpponentTurn/64  1 4  actions  1066000
# The benchmark runs under callgrind twice, with REFEREE_BENCH_ITERATIONS set
# to each count (bench/fixed_iterations.hpp), and the difference of the two
# totals is divided by the difference of the iterations: what one iteration
# costs, without the set-up. With a counter name instead of "iteration", by
# the difference of that counter's totals (the benchmark reports it as an
# average per iteration), e.g. instructions per action of an opponent turn.
#
# Prints each benchmark's figure, the baseline's and the change; exits 1
# when any rose more than 5% (a fall of more than 5% is reported too, so the
# baseline can be brought down with --update), 2 on bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
only=""
positional=()
while (($#)); do
  case "$1" in
    --update) update=1 ;;
    --only) only="${2:?--only needs a regular expression}"; shift ;;
    -*) echo "bench-compare.sh: unknown option $1" >&2; exit 2 ;;
    *) positional+=("$1") ;;
  esac
  shift
done
build="${positional[0]:-build/release}"
baseline="${positional[1]:-bench/instructions.txt}"
[[ -f "$baseline" ]] || { echo "bench-compare.sh: no baseline file $baseline" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "bench-compare.sh: valgrind is needed (scripts/install-deps.sh --bench)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Instructions of one run, and the counter's average per iteration (0 without one).
# Prints "instructions counter".
measure() {
  local program="$1" name="$2" iterations="$3" counter="$4"
  REFEREE_BENCH_ITERATIONS="$iterations" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
    "$build/bench/$program" --benchmark_filter="^${name}/iterations:[0-9]+\$" --benchmark_format=json \
    >"$tmp/run.json" 2>"$tmp/valgrind.txt" || { cat "$tmp/valgrind.txt" >&2; return 1; }
  grep -q "\"name\": \"${name}/iterations:${iterations}\"" "$tmp/run.json" ||
    { echo "bench-compare.sh: $program ran no benchmark $name" >&2; return 1; }
  local total
  total="$(awk '/^summary:/ { print $2; exit }' "$tmp/cg.out")"
  local per=0
  if [[ "$counter" != iteration ]]; then
    per="$(sed -n "s/^ *\"$counter\": \\([-0-9.e+]*\\),\\{0,1\\}\$/\\1/p" "$tmp/run.json" | head -n 1)"
    [[ -n "$per" ]] || { echo "bench-compare.sh: $name reports no counter $counter" >&2; return 1; }
  fi
  echo "$total $per"
}

risen=0
: >"$tmp/updated"
printf '%-34s %-44s %14s %14s %8s\n' program benchmark measured baseline change
while IFS= read -r line; do
  if [[ -z "${line// }" || "$line" == \#* ]]; then
    echo "$line" >>"$tmp/updated"
    continue
  fi
  read -r program name n1 n2 per saved <<<"$line"
  if [[ -n "$only" && ! "$name" =~ $only ]]; then
    echo "$line" >>"$tmp/updated"
    continue
  fi
  first="$(measure "$program" "$name" "$n1" "$per")"
  second="$(measure "$program" "$name" "$n2" "$per")"
  read -r total1 count1 <<<"$first"
  read -r total2 count2 <<<"$second"
  figure="$(awk -v a="$total1" -v b="$total2" -v n1="$n1" -v n2="$n2" -v c1="$count1" -v c2="$count2" -v per="$per" 'BEGIN {
    d = per == "iteration" ? n2 - n1 : c2 * n2 - c1 * n1
    if (d <= 0) { print "nan"; exit }
    printf "%.0f\n", (b - a) / d }')"
  change="$(awk -v f="$figure" -v s="$saved" 'BEGIN { if (s > 0 && f != "nan") printf "%+.1f%%", 100 * (f - s) / s; else print "?" }')"
  flag=""
  if awk -v f="$figure" -v s="$saved" 'BEGIN { exit !(f == "nan" || f > 1.05 * s) }'; then
    flag="  ROSE MORE THAN 5%"
    risen=1
  elif awk -v f="$figure" -v s="$saved" 'BEGIN { exit !(f < 0.95 * s) }'; then
    flag="  fell more than 5%: --update brings the baseline down"
  fi
  printf '%-34s %-44s %14s %14s %8s%s\n' "$program" "$name/$per" "$figure" "$saved" "$change" "$flag"
  printf '%s %s %s %s %s %s\n' "$program" "$name" "$n1" "$n2" "$per" "$figure" >>"$tmp/updated"
done <"$baseline"

if ((update)); then
  cp "$tmp/updated" "$baseline"
  echo "baseline written: $baseline"
  # The table of docs/benchmarks.md shows the baseline's figures (the test
  # bench.docs_figures holds the two equal): its rows are written too.
  doc=docs/benchmarks.md
  if [[ "$baseline" == bench/instructions.txt && -f "$doc" ]]; then
    awk -F'|' -v OFS='|' '
      function commas(n,   s) { s = ""; while (n >= 1000) { s = sprintf(",%03d", n % 1000) s; n = int(n / 1000) } return n s }
      FNR == NR { if ($0 !~ /^#/) { split($0, f, " "); if (f[6] != "") fig[f[1] " " f[2] " " f[5]] = f[6] } next }
      /<!-- instructions:begin -->/ { on = 1 } /<!-- instructions:end -->/ { on = 0 }
      on && NF >= 7 && $2 ~ /`/ {
        key = $2 " " $3 " " $4; gsub(/[` ]+/, " ", key); gsub(/^ +| +$/, "", key); gsub(/ +/, " ", key)
        if (key in fig) $5 = " " commas(fig[key] + 0) " "
      }
      { print }' "$baseline" "$doc" >"$tmp/doc" && cp "$tmp/doc" "$doc"
    echo "figures written: $doc"
  fi
  exit 0
fi
((risen == 0)) || { echo "some benchmark rose more than 5% (instructions; see above)"; exit 1; }
