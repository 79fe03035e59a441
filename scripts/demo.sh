#!/usr/bin/env bash
# The main job: installs what is missing, builds, and has referee rule on a
# move in the bundled default Warmaster battle and draw it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target referee
mkdir -p out
ref=build/release/apps/referee/referee
$ref warmaster check --battle scenarios/warmaster/default.json --move scenarios/warmaster/default-move.json --explain
$ref warmaster check --battle scenarios/warmaster/default.json --move scenarios/warmaster/default-move.json -o out/default-move.json
$ref warmaster render --battle scenarios/warmaster/default.json --move scenarios/warmaster/default-move.json -o out/default-battle.svg
echo "wrote out/default-move.json and out/default-battle.svg"
