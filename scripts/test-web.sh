#!/usr/bin/env bash
# The web board's browser tests: Debian's chromium driven by playwright-core
# (from web/package-lock.json, with npm ci; no browser is downloaded) against
# `referee serve`. Screenshots go to build/release/screenshots.
# Usage: scripts/test-web.sh [referee binary]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --web
referee=$(realpath "${1:-build/release/apps/referee/referee}")
# npm trusts the system's certificate store when there is one (Node.js
# otherwise trusts only its own built-in list, which a network with its own
# certificate authority, such as a company proxy, is not in).
cafile=()
[[ -f /etc/ssl/certs/ca-certificates.crt ]] && cafile=(--cafile=/etc/ssl/certs/ca-certificates.crt)
(cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error "${cafile[@]}")
mkdir -p build/release/screenshots
cd web
# One test file at a time: the load and redraw times they print are a
# browser's alone, not several browsers' competing for the cores.
REFEREE="$referee" SCREENSHOTS="$(realpath ../build/release/screenshots)" node --test --test-concurrency=1 tests/
