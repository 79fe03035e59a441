#!/usr/bin/env bash
# The web board's browser tests against `referee serve`: first in Debian's
# chromium driven by playwright-core, then in Debian's firefox-esr driven by
# puppeteer-core over WebDriver BiDi (both from web/package-lock.json, with
# npm ci; no browser is downloaded). Screenshots go to build/release/screenshots
# (Firefox's are named firefox-*).
# Usage: scripts/test-web.sh [referee binary]
# (REFEREE_TICTACTOE may name the test build with the fourth system; by
# default it is tests/referee_with_tictactoe of the binary's build tree.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --web
referee=$(realpath "${1:-build/release/apps/referee/referee}")
# npm trusts the system's certificate store when there is one (Node.js
# otherwise trusts only its own built-in list, which a network with its own
# certificate authority, such as a company proxy, is not in).
cafile=()
[[ -f /etc/ssl/certs/ca-certificates.crt ]] && cafile=(--cafile=/etc/ssl/certs/ca-certificates.crt)
(cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error "${cafile[@]}")
mkdir -p build/release/screenshots
cd web
export REFEREE="$referee" SCREENSHOTS="$(realpath ../build/release/screenshots)"
# The test build of referee with the tests' fourth system (tests/support/
# referee_with_tictactoe.cpp), beside the binary's build tree unless given.
export REFEREE_TICTACTOE="${REFEREE_TICTACTOE:-$(realpath -m "$(dirname "$referee")/../../tests/referee_with_tictactoe")}"
# One browser at a time (node --test would sort the files and may run them
# side by side), so the load and redraw times they print are a browser's
# alone: every chromium file, one after another, then Firefox's; both run
# even if the first fails.
chromium_tests=()
for f in tests/*.test.mjs; do [[ $f == tests/firefox.test.mjs ]] || chromium_tests+=("$f"); done
status=0
node --test --test-concurrency=1 "${chromium_tests[@]}" || status=1
node --test tests/firefox.test.mjs || status=1
exit $status
