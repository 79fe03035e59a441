#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the C++ suites and
# command-line tests (ctest), then the web board's browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --web
cmake --preset release >/dev/null
cmake --build --preset release
ctest --preset release
scripts/test-web.sh build/release/apps/referee/referee
