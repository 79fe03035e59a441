# Shared by the command-line test scripts (sourced, not run): a temporary
# folder $tmp removed on exit, $fail set to 1 by any failed check, and the
# checks themselves. The script ends with `exit $fail`.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # check <description> <command...>: the command must succeed
  local what=$1; shift
  if ! "$@"; then echo "FAIL: $what"; fail=1; fi
}
expect_exit() {  # expect_exit <code> <description> <command...>; output in $tmp/out, $tmp/err
  local code=$1 what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$code" ]; then echo "FAIL: $what (exit $got, wanted $code)"; cat "$tmp/err"; fail=1; fi
}
has() { grep -q -- "$2" "$1"; }
