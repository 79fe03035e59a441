#!/usr/bin/env bash
# Installs the Debian packages referee builds and tests with, only when some
# are missing. Usage: scripts/install-deps.sh [--fuzz] [--web] [--bench] [--plots]
#   --fuzz  clang and its libFuzzer runtime
#   --bench valgrind, whose callgrind counts the benchmarks' instructions
#           (scripts/bench-compare.sh)
#   --plots python3-matplotlib, for PNG charts beside the SVG ones
#   --web   what the web board's browser tests need: Debian's chromium and
#           firefox-esr (the tests never download a browser), and Node.js
#           with npm for playwright-core and puppeteer-core
#           (web/package-lock.json, installed with npm ci)
set -euo pipefail
# pybind11-dev, python3-dev and python3-pytest: the Python module (python/,
# built for Debian's /usr/bin/python3) and its tests; python3-distributed:
# Dask, for `referee simulate --scheduler` and referee.simulate(client=...)
# (docs/scale.md). python3-matplotlib is optional (a PNG beside each SVG
# chart of referee.write_plot; about 100 MB with its dependencies):
# --plots installs it.
packages=(g++ cmake ninja-build ccache pkgconf nlohmann-json3-dev libcli11-dev libfmt-dev
          libgtest-dev libgmock-dev libbenchmark-dev libboost-dev libsqlite3-dev libssl-dev
          pybind11-dev python3-dev python3-pytest python3-distributed)
for option in "$@"; do
  case "$option" in
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --bench) packages+=(valgrind) ;;
    --plots) packages+=(python3-matplotlib) ;;
    --web)
      packages+=(chromium firefox-esr)
      # A machine with its own Node.js (NodeSource's bundles npm) keeps it:
      # Debian's npm package would conflict with it.
      if ! command -v node >/dev/null || ! command -v npm >/dev/null; then packages+=(nodejs npm); fi ;;
    *) echo "install-deps.sh: unknown option $option (expected --fuzz, --web, --bench or --plots)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
