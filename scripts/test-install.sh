#!/usr/bin/env bash
# Installs a finished build into a temporary prefix, as a user or a
# distribution would, then builds and runs tests/consumer against it: a
# separate project that finds the package with find_package(referee) and links
# referee::core and each system. Also runs the installed `referee` command.
# Usage: scripts/test-install.sh [build-dir]   (default build/release, built)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
for f in bin/referee include/referee/core/chance.hpp include/referee/warmaster/command/orders.hpp; do
  [[ -f "$prefix/$f" ]] || { echo "FAIL: $f was not installed"; exit 1; }
done
config=$(find "$prefix" -name refereeConfig.cmake)
[[ -n "$config" ]] || { echo "FAIL: no refereeConfig.cmake installed"; exit 1; }

# The installed command works away from the build and source trees.
out=$(cd "$tmp" && "$prefix/bin/referee" warmaster odds --command 9 --distance 25)
grep -q '"needed": 8' <<<"$out" || { echo "FAIL: installed referee answered: $out"; exit 1; }

# The Python module, where the build made one: importable from the prefix.
module=$(find "$prefix" -name '_referee*.so' | head -n 1)
if [[ -n "$module" ]]; then
  out=$(cd "$tmp" && PYTHONPATH="$(dirname "$(dirname "$module")")" /usr/bin/python3 -c \
    'import referee; print(referee.systems(), referee.__file__)')
  grep -q "warmaster" <<<"$out" && grep -q "$prefix" <<<"$out" ||
    { echo "FAIL: the installed module answered: $out"; exit 1; }
fi

# The consumer sees only the prefix: no path into this repository's build.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S tests/consumer -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" >"$tmp/configure.log" \
  || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/consumer" >"$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
"$tmp/consumer/referee_consumer"
echo "== install: $(grep -c Installing "$tmp/install.log") files and folders into a fresh prefix; the consumer built and passed"
