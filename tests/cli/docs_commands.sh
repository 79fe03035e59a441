#!/usr/bin/env bash
# The documentation and the command line agree: every `referee ...` command
# line in the top-level *.md and docs/*.md (a code span, or a line of a fenced code
# block, that begins with `referee `) names a command that exists.
#
# For each one: its words up to the first option are a subcommand path that
# `referee --help` and its subcommands' help list (CLI11 answers --help after
# an unknown word with its parent's help and exit 0, so the exit alone proves
# nothing: the path is walked through each level's "Subcommands:" list, and
# `referee <path> --help` must exit 0 with "Usage: ... <path>"); a word past a
# command without subcommands must be one of its positionals (a query's name
# one that `query --list` lists); every option it names must be one of the
# command's own. `<system>` (and `<name>`) stand for every system, the root's
# subcommands that have `play`. Alternatives before the options
# (`referee games list | export ID`) are each checked.
#
# A command runnable as written with the repository's files (no placeholder
# such as ID, B.json, <file>, [...], every input file present, or written by a
# command before it in the same document; a code span only when it names a
# file of the repository, else it names the command rather than a line to
# run; at most 100 games) is also run, in document order, in
# a fresh folder per document holding copies of the folders it reads, and
# must exit 0, or the code its comment names ("# exit 3"). `referee serve`
# is never run (it serves until stopped); --interactive reads an empty
# standard input. A path into a folder of the repository (scenarios/...)
# that is not there is a failure.
#
# Prints each command and what was checked, and a summary; exits 1 naming
# every documented command that fails.
# Usage: docs_commands.sh <path-to-referee> <repo-root> [json_tool]
set -uo pipefail
ref="$1"
root="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The command lines: "<file>:<line><TAB><command>", a fenced line's
# continuations (a trailing backslash) joined, a leading "$ " prompt and a
# trailing "# comment" kept apart ("<command><TAB><comment>"); a code span
# may run over a line break within its paragraph; "\|" in a table is "|".
extract() {
  awk '
    function emit(where, text, comment, kind) {
      gsub(/\\\|/, "|", text)
      sub(/^[ \t]+/, "", text); sub(/[ \t]+$/, "", text)
      if (text ~ /^referee /) printf "%s\t%s\t%s\t%s\n", where, kind, text, comment
    }
    function fenced(where, text,   comment) {
      comment = ""
      if (match(text, /[ \t]+#( |$)/)) { comment = substr(text, RSTART); text = substr(text, 1, RSTART - 1) }
      sub(/^[ \t]+/, "", comment)
      emit(where, text, comment, "fence")
    }
    FNR == 1 { fence = 0; carry = ""; pending = "" }
    /^[ \t]*(```|~~~)/ {
      if (pending != "") { fenced(pwhere, pending); pending = "" }
      fence = !fence; carry = ""; next
    }
    fence {
      line = $0
      if (pending != "") { sub(/^[ \t]+/, "", line); pending = pending " " line }
      else { sub(/^[ \t]+/, "", line); sub(/^\$ /, "", line); if (line !~ /^referee /) next; pending = line; pwhere = FILENAME ":" FNR }
      if (pending ~ /\\$/) { sub(/[ \t]*\\$/, "", pending); next }
      fenced(pwhere, pending); pending = ""; next
    }
    /^[ \t]*$/ { carry = ""; next }
    {
      if (carry != "") { s = carry " " $0; where = cwhere } else { s = $0; where = FILENAME ":" FNR }
      carry = ""
      while ((i = index(s, "`")) > 0) {
        rest = substr(s, i + 1)
        j = index(rest, "`")
        if (j == 0) { carry = substr(s, i); cwhere = where; break }
        emit(where, substr(rest, 1, j - 1), "", "span")
        s = substr(rest, j + 1)
      }
    }
  ' "$@"
}

# Help of a subcommand path, cached per path.
declare -A help_text=() help_code=()
help_of() {  # help_of <words...>: sets $help (text) and $help_rc
  local key=" $*"
  if [[ -z "${help_code[$key]+x}" ]]; then
    help_text[$key]="$("$ref" "$@" --help 2>&1 </dev/null)"
    help_code[$key]=$?
  fi
  help="${help_text[$key]}"
  help_rc="${help_code[$key]}"
}
subcommands_of() {  # the "Subcommands:" list of a path's help
  help_of "$@"
  awk '/^Subcommands:/ { s = 1; next } s && /^[^ ]/ { s = 0 } s && /^  [^ ]/ { print $1 }' <<<"$help"
}
options_of() {  # every option name of a path's help, one a line
  help_of "$@"
  awk '/^Options:/ { s = 1; next } s && /^[^ ]/ { s = 0 }
       s && /^  -/ { n = split($1, a, ","); for (k = 1; k <= n; k++) print a[k] }' <<<"$help"
}
systems=()
for c in $(subcommands_of); do
  subcommands_of "$c" | grep -qx play && systems+=("$c")
done
[[ ${#systems[@]} -gt 0 ]] || { echo "FAIL: no system with a play command in referee --help"; exit 1; }

# check_command <text>: the subcommand path, positionals and options of one
# alternative; problems appended to $problems, the path to $paths.
check_alternative() {
  local -a words=("$@") path=()
  local w k=0 n=${#words[@]} subs
  while ((k < n)); do
    w="${words[k]}"
    [[ "$w" == -* || "$w" == [\[\(]* || "$w" == ... || "$w" == … ]] && break
    if [[ ${#path[@]} -eq 0 && ( "$w" == '<system>' || "$w" == '<name>' ) ]]; then
      local s
      for s in "${systems[@]}"; do check_alternative "$s" "${words[@]:k+1}"; done
      return
    fi
    subs="$(subcommands_of "${path[@]}")"
    if [[ -n "$subs" ]]; then
      [[ "$w" == \<*\> ]] && break  # <question>: any of them
      if ! grep -qxF -- "$w" <<<"$subs"; then
        problems+=("'referee ${path[*]}' has no subcommand '$w' (it has: $(paste -sd' ' <<<"$subs"))")
        return
      fi
      path+=("$w")
    else
      help_of "${path[@]}"
      if ! grep -q '^Positionals:' <<<"$help"; then
        problems+=("'referee ${path[*]}' takes no argument, given '$w'")
        return
      fi
      if [[ "${path[-1]}" == query && "$w" != [A-Z]* && "$w" != \<*\> ]]; then
        local q list
        list="$("$ref" "${path[@]}" --list 2>/dev/null </dev/null)"
        for q in ${w//|/ }; do
          grep -qF "\"name\": \"$q\"" <<<"$list" || problems+=("'referee ${path[*]} --list' has no query '$q'")
        done
      fi
      break
    fi
    k=$((k + 1))
  done
  help_of "${path[@]}"
  if [[ "$help_rc" != 0 ]] || ! grep -qE "^Usage: [^ ]*referee${path[*]:+ }${path[*]}( |$)" <<<"$help"; then
    problems+=("'referee ${path[*]} --help' exits $help_rc or names another command")
    return
  fi
  paths+=("referee${path[*]:+ }${path[*]}")
  # The options it names are the command's own.
  local opts opt
  opts="$(options_of "${path[@]}")"
  for w in "${words[@]:k}"; do
    [[ "$w" =~ ^[\[\(]*(--?[A-Za-z][A-Za-z0-9-]*) ]] || continue
    opt="${BASH_REMATCH[1]}"
    grep -qxF -- "$opt" <<<"$opts" || problems+=("'referee ${path[*]}' has no option $opt")
  done
}

# Why a command cannot run as written (empty: it can), given the folder it
# would run in.
not_runnable() {  # not_runnable <dir> <kind> <text>
  local dir="$1" kind="$2" text="$3" w
  [[ "$text" =~ ^referee\ serve ]] && { echo "a server"; return; }
  [[ "$text" =~ [\$\`\;\&\<\>\(\)\[\]\|…] || "$text" == *...* ]] && { echo "a synopsis"; return; }
  local -a words
  eval "words=(${text#referee })" 2>/dev/null || { echo "not shell words"; return; }
  local prev="" repo_file=""
  for w in "${words[@]}"; do
    if [[ "$prev" == --games && "$w" =~ ^[0-9]+$ ]] && ((w > 100)); then echo "$w games, a long run"; return; fi
    if [[ "$w" =~ ^[A-Z][A-Z0-9_]*([.,:][A-Za-z0-9,]*)?$ ]]; then echo "placeholder $w"; return; fi
    case "$prev" in -o | --out | --svg | --svg-dir | --results | --summary | --plot) prev="$w"; continue ;; esac
    if [[ "$w" == */* || "$w" =~ \.(json|jsonl|log|pem)$ ]] && [[ "$w" != -* && "$w" != \{* ]]; then
      if [[ ! -e "$dir/$w" && ! -e "$root/$w" ]]; then
        # A path into a folder of the repository names a file that must be there.
        [[ "$w" == */* && -d "$root/${w%%/*}" ]] && { echo "missing: $w is not in the repository"; return; }
        echo "no file $w"; return
      fi
      [[ -e "$root/$w" ]] && repo_file=1
    fi
    prev="$w"
  done
  # A code span without a file of the repository names the command (`referee
  # warmaster check`) rather than a command line to run.
  [[ "$kind" == fence || -n "$repo_file" ]] || echo "a reference to the command"
}

run_command() {  # run_command <dir> <text> <comment>: sets $run_rc, $run_want
  local dir="$1" text="$2" comment="$3" w top
  local -a words
  eval "words=(${text#referee })"
  # Copies of the repository folders it reads (scenarios/..., tests/...), and
  # the folders it writes into.
  local prev=""
  for w in "${words[@]}"; do
    if [[ "$w" == */* && "$w" != -* && "$w" != \{* ]]; then
      top="${w%%/*}"
      case "$prev" in
        -o | --out | --svg | --svg-dir | --results | --summary | --plot) mkdir -p "$dir/$(dirname "$w")" ;;
        *) [[ -e "$dir/$top" || ! -e "$root/$top" ]] || cp -r "$root/$top" "$dir/$top" ;;
      esac
    fi
    prev="$w"
  done
  run_want=0
  [[ "$comment" =~ exits?\ ([0-9]+) ]] && run_want="${BASH_REMATCH[1]}"
  (cd "$dir" && HOME="$tmp/home" XDG_STATE_HOME="$tmp/state" "$ref" "${words[@]}" </dev/null >"$tmp/out" 2>"$tmp/err")
  run_rc=$?
}

shopt -s nullglob
extract "$root"/*.md "$root"/docs/*.md >"$tmp/commands"
[[ -s "$tmp/commands" ]] || { echo "FAIL: no referee command found in the documentation"; exit 1; }
set -f  # no file name expansion of the documented words from here on

checked=0 ran=0
declare -a failed=()
declare -A workdir=()
while IFS=$'\t' read -r where kind text comment; do
  file="${where%:*}"
  rel="${where#"$root"/}"
  [[ -n "${workdir[$file]+x}" ]] || { workdir[$file]="$(mktemp -d -p "$tmp")"; }
  dir="${workdir[$file]}"
  checked=$((checked + 1))
  problems=() paths=()
  # Alternatives before the first option, as in `referee games list | export ID | delete ID [--data DIR]`.
  body="${text#referee }"
  head="$(sed -E 's/(^| )[-[(].*$//' <<<"$body")"
  tail="${body:${#head}}"
  if [[ "$head" == *" | "* ]]; then
    IFS='|' read -ra alts <<<"$head"
    read -ra first <<<"${alts[0]}"
    base=("${first[@]:0:${#first[@]}-1}")
    for a in "${alts[@]}"; do
      read -ra aw <<<"$a"
      # The options after the last alternative are checked against each one.
      # shellcheck disable=SC2086
      if [[ "$a" == "${alts[0]}" ]]; then check_alternative "${aw[@]}" $tail
      else check_alternative "${base[@]}" "${aw[@]}" $tail; fi
    done
  else
    # shellcheck disable=SC2086  # words split on spaces; quotes matter only to a run
    check_alternative $body
  fi
  what="--help: $(printf '%s; ' "${paths[@]}")"
  what="${what%; }"
  if [[ ${#problems[@]} -eq 0 ]]; then
    why="$(not_runnable "$dir" "$kind" "$text")"
    if [[ "$why" == missing:* ]]; then problems+=("${why#missing: }"); why="";
    elif [[ -z "$why" ]]; then
      run_command "$dir" "$text" "$comment"
      ran=$((ran + 1))
      if [[ "$run_rc" == "$run_want" ]]; then
        what+=", ran: exit $run_rc"
      else
        problems+=("run as written, exits $run_rc, wanted $run_want: $(head -c 300 "$tmp/err")")
      fi
    else
      what+=", not run: $why"
    fi
  fi
  if [[ ${#problems[@]} -eq 0 ]]; then
    echo "ok    $rel: $text  [$what]"
  else
    echo "FAIL  $rel: $text"
    printf '        %s\n' "${problems[@]}"
    failed+=("$rel: $text")
  fi
done <"$tmp/commands"

echo
echo "$checked documented command lines checked, $ran of them run as written, ${#failed[@]} failed"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "Documented commands that do not exist or fail:"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
exit 0
