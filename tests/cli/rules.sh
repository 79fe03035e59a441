#!/usr/bin/env bash
# `referee <system> rules`: the rule catalogues as JSON, text and Markdown,
# and docs/rules.md kept equal to what the binary prints. To regenerate the
# doc after changing a catalogue:
#   { sed '/^## /,$d' docs/rules.md; for s in warmaster ancients blightmeer; do
#     referee $s rules --markdown; echo; done; } > docs/rules.md.new && mv docs/rules.md.new docs/rules.md
# (the last blank line is then removed), i.e. the doc's introduction followed
# by the three sections, one blank line apart.
set -u
referee=$1
root=$2
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

# JSON by default, with the system and every rule's id, text and firing.
expect_exit 0 "warmaster rules" "$referee" warmaster rules -o "$tmp/wm.json"
check "warmaster system named" has "$tmp/wm.json" '"system": "warmaster"'
check "gap rule listed" has "$tmp/wm.json" '"id": "warmaster.movement.gap"'
check "gap rule quotes the text" has "$tmp/wm.json" 'unless the gap is wider than the stand'
check "fires given" has "$tmp/wm.json" '"fires": '
expect_exit 0 "ancients rules" "$referee" ancients rules -o "$tmp/anc.json"
check "ancients leader allowance" has "$tmp/anc.json" '"id": "ancients.leader.allowance"'
expect_exit 0 "blightmeer rules" "$referee" blightmeer rules -o "$tmp/bm.json"
check "blightmeer jump down check" has "$tmp/bm.json" '"id": "blightmeer.jump_down.check"'

# --explain: readable text.
expect_exit 0 "blightmeer rules --explain" "$referee" blightmeer rules --explain -o "$tmp/bm.txt"
check "explain counts the rules" has "$tmp/bm.txt" '^Blightmeer: [0-9]* rules'
check "explain gives the rule" has "$tmp/bm.txt" '^  rule:  "Units that enter deep water with Light or Heavy Armour'
check "explain gives when it fires" has "$tmp/bm.txt" '^  fires: '

# Usage errors exit 2 and write nothing.
expect_exit 2 "unknown option" "$referee" warmaster rules --nonsense -o "$tmp/bad.json"
check "no file on a usage error" test ! -e "$tmp/bad.json"

# docs/rules.md is the doc's introduction and the three Markdown sections.
sed '/^## /,$d' "$root/docs/rules.md" > "$tmp/rules.md"
first=1
for s in warmaster ancients blightmeer; do
  [ $first = 1 ] || echo >> "$tmp/rules.md"
  first=0
  if ! "$referee" $s rules --markdown >> "$tmp/rules.md"; then echo "FAIL: $s rules --markdown"; fail=1; fi
done
if ! diff -u "$root/docs/rules.md" "$tmp/rules.md" > "$tmp/diff"; then
  echo "FAIL: docs/rules.md is out of date with \`referee <system> rules --markdown\`:"
  head -40 "$tmp/diff"
  fail=1
fi

exit $fail
