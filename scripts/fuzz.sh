#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for N seconds (default 60),
# seeded from the bundled scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/install-deps.sh --fuzz
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
shopt -s nullglob
for fuzzer in build/fuzz/fuzz/*_fuzz; do
  name=$(basename "$fuzzer")
  module=${name%%_*}
  corpus=build/fuzz/corpus/$name
  mkdir -p "$corpus"
  cp -n scenarios/"$module"/*.json "$corpus"/ 2>/dev/null || true
  echo "== $name for ${seconds}s"
  "$fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 -print_final_stats=1 "$corpus" \
    2>&1 | tail -n 12
done
