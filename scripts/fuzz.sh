#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for N seconds (default
# 60), two at a time on the two cores, seeded from the bundled scenarios,
# action lists and golden logs.
# Fails if any target finds a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/install-deps.sh --fuzz
cmake --preset fuzz >/dev/null
# Only the fuzz targets and the libraries they link: the command line is
# built and tested by the release preset already.
targets=()
for src in fuzz/*_fuzz.cpp; do targets+=("$(basename "$src" .cpp)"); done
cmake --build --preset fuzz --target "${targets[@]}"
shopt -s nullglob
logs=build/fuzz/logs
mkdir -p "$logs"
# Seeds: the bundled scenarios, action lists and golden logs of the module
# (all of them for core), and a few option values for the command line's parsers.
seed_corpus() {
  local module=$1 corpus=$2 name=$3 f i=0 v
  case "$name" in
    server_http_fuzz)
      # Raw HTTP (fuzz/seeds: {id} stands for a real game): a game's routes, bodies framed each way, pipelining.
      cp fuzz/seeds/server_http_fuzz/* "$corpus/"
      return ;;
    core_dice_fuzz)
      for v in 3,4,6,1 6 " 1, 2 ,3" 1000,1 0 7,,8 -1 2147483648; do printf '%s' "$v" >"$corpus/seed-$i"; i=$((i + 1)); done
      return ;;
    server_battle_fuzz)
      # The first byte picks --system (none, warmaster, ancients, blightmeer).
      for f in scenarios/*/*.json; do
        { printf '\x0'"$i"; cat "$f"; } >"$corpus/${f//\//_}"; i=$(((i + 1) % 4))
      done
      return ;;
  esac
  case "$module" in
    core) for f in scenarios/*/*.json scenarios/*/*/*.json tests/*/golden/* tests/*/data/*; do cp "$f" "$corpus/${f//\//_}"; done ;;
    cli)
      for v in 6,4 -1,13 3.5,7.5 1,2,3 50,50,0 12.5,-3,270 nan,1 1e308,2 18446744073709551615 007 -1 1e29; do
        printf '%s' "$v" >"$corpus/seed-$i"; i=$((i + 1))
      done ;;
    *) for f in scenarios/"$module"/*.json scenarios/"$module"/*/*.json tests/"$module"/golden/* tests/"$module"/data/*; do
         cp "$f" "$corpus/${f//\//_}"; done ;;
  esac
}
run_one() {
  local fuzzer=$1 name module corpus
  name=$(basename "$fuzzer")
  module=${name%%_*}
  corpus=build/fuzz/corpus/$name
  mkdir -p "$corpus"
  seed_corpus "$module" "$corpus" "$name"
  if "$fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 -print_final_stats=1 \
       -artifact_prefix=build/fuzz/logs/"$name"- "$corpus" >"$logs/$name.log" 2>&1; then
    echo "== $name: ${seconds}s, $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$logs/$name.log" | grep -o '[0-9]*$') runs, no crash"
  else
    echo "== $name FAILED"; tail -n 40 "$logs/$name.log"; return 1
  fi
}
pids=(); status=0
for fuzzer in build/fuzz/fuzz/*_fuzz; do
  run_one "$fuzzer" & pids+=($!)
  if ((${#pids[@]} == 2)); then wait "${pids[0]}" || status=1; pids=("${pids[1]}"); fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
