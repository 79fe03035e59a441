#!/usr/bin/env bash
# The main job: installs what is missing, builds, and starts the web board
# (`referee serve`) on the bundled default Warmaster battle, printing the
# address to open. Before it serves, referee rules on a move in that battle
# on the command line (out/default-move.json, out/default-battle.svg).
# Usage: scripts/demo.sh [referee serve options, e.g. --port 8081]
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
exec "$ref" serve "$@"
