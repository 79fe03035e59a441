#!/usr/bin/env bash
# The path from code to reading stays inside the repository: every
# `docs/rulings.md#<anchor>` cited in src/, include/, apps/ or tests/ is an
# anchor of docs/rulings.md, and no code cites a file outside the repository
# (../shared, the rule texts' README) or an issue number.
set -u
root=$2
fail=0
cd "$root" || exit 1
anchors=$(grep -o '<a id="[A-Za-z0-9_-]*"></a>' docs/rulings.md | sed 's/<a id="\([^"]*\)"><\/a>/\1/' | sort)
dups=$(printf '%s\n' "$anchors" | uniq -d)
if [ -n "$dups" ]; then echo "FAIL: anchors defined twice in docs/rulings.md: $dups"; fail=1; fi
# The checkers themselves name what they look for, so they are left out.
checkers='tests/cli/rulings_anchors.sh|tests/support/source_check.cpp'
cited=$(grep -rHoE 'docs/rulings\.md#[A-Za-z0-9_-]+' src include apps tests | grep -vE "^($checkers):" | cut -d: -f2- | sed 's/.*#//' | sort -u)
if [ -z "$cited" ]; then echo "FAIL: no docs/rulings.md#<anchor> citations found"; fail=1; fi
for a in $cited; do
  if ! printf '%s\n' "$anchors" | grep -qx -- "$a"; then
    echo "FAIL: docs/rulings.md#$a is cited but docs/rulings.md has no such anchor:"
    grep -rn "docs/rulings\.md#$a\b" src include apps tests | head -3
    fail=1
  fi
done
# A citation of docs/rulings.md must name its anchor.
bare=$(grep -rnE 'docs/rulings\.md([^#]|$)' src include apps tests | grep -vE "^($checkers):" || true)
if [ -n "$bare" ]; then echo "FAIL: docs/rulings.md cited without an anchor:"; echo "$bare"; fail=1; fi
# No citation of a file outside the repository or of an issue.
outside=$(grep -rnE '\.\./shared|README|[Ii]ssue [0-9]' src include apps tests | grep -vE "^($checkers):" || true)
if [ -n "$outside" ]; then echo "FAIL: citations outside the repository:"; echo "$outside"; fail=1; fi
exit $fail
