#!/usr/bin/env bash
# Checks that every external command our scripts and tests run is either
# installed by scripts/install-deps.sh or part of a minimal Debian 12 (what
# `debootstrap --variant=minbase bookworm` installs). A fresh Debian lacks
# python3, a JSON filter or an HTTP client, gawk: how a test can pass here and fail there.
# Usage: scripts/check-commands.sh [repository root]   Exit 1 listing each
# unknown command as file:line: command.
#
# Scanned: scripts/*.sh, .ci/run, tests/cli/*.sh (bash), and COMMAND words in
# tests/**/CMakeLists.txt. It is a word scan, not a shell parser. It sees the
# first word of each command (at the start of a line, after ; && || | ( { !
# $( ` then do else, and after leading VAR=value, exec, command, env, time),
# and skips comments, here-document bodies, and single- and double-quoted text
# outside $( ). Limits: a command run through a variable ("$ref", $SUDO), or
# passed as an argument (xargs CMD, check ... CMD, sh -c '...') is not seen;
# a quote inside the other kind of quotes can hide or expose a word. Paths are
# accepted when the file exists in the repository or lies under build/.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# Debian 12 minbase: the Essential and Priority: required packages plus apt.
base_commands=(
  # bash, dash
  bash sh dash
  # coreutils
  '[' arch b2sum base32 base64 basename basenc cat chcon chgrp chmod chown chroot cksum comm cp
  csplit cut date dd df dir dircolors dirname du echo env expand expr factor false fmt fold groups
  head hostid id install join link ln logname ls md5sum mkdir mkfifo mknod mktemp mv nice nl nohup
  nproc numfmt od paste pathchk pinky pr printenv printf ptx pwd readlink realpath rm rmdir runcon
  seq sha1sum sha224sum sha256sum sha384sum sha512sum shred shuf sleep sort split stat stdbuf stty
  sum sync tac tail tee test timeout touch tr true truncate tsort tty uname unexpand uniq unlink
  users vdir wc who whoami yes
  # diffutils, findutils, grep, sed, mawk (awk), tar, gzip
  cmp diff diff3 sdiff find xargs grep egrep fgrep sed awk mawk tar gzip gunzip zcat
  # debianutils, util-linux, bsdutils, mount, hostname, ncurses-bin, login, passwd, perl-base
  which run-parts tempfile savelog flock getopt setsid more mount umount su runuser logger
  script hostname tput clear login passwd perl
  # dpkg, apt
  dpkg dpkg-query dpkg-deb update-alternatives apt apt-get apt-cache apt-config apt-mark
)
# The commands each package in install-deps.sh brings. A package listed here
# must also be in install-deps.sh's list, or its commands do not count.
package_commands=(
  "g++: g++ c++ gcc cc"
  "cmake: cmake ctest cpack"
  "ninja-build: ninja"
  "ccache: ccache"
  "pkgconf: pkgconf pkg-config"
  "clang: clang clang++"
  "chromium: chromium"
  "firefox-esr: firefox-esr"
  "nodejs: node nodejs"
  "npm: npm npx"
  "valgrind: valgrind callgrind_annotate"
)
shell_words=(
  # keywords and builtins of bash
  if then else elif fi do done while until for in case esac select function time coproc
  alias bg bind break builtin kill caller cd command compgen complete compopt continue declare dirs
  disown enable eval exec exit export fc fg getopts hash help history jobs let local logout
  mapfile popd pushd read readarray readonly return set shift shopt source suspend times trap
  type typeset ulimit umask unalias unset wait
)

declare -A allowed=()
for w in "${base_commands[@]}" "${shell_words[@]}"; do allowed[$w]=1; done
# Every word of install-deps.sh's package arrays: packages=( ... ) and packages+=( ... ).
deps_packages=" $(tr '\n' ' ' <scripts/install-deps.sh | grep -oE 'packages\+?=\([^)]*\)' |
                  sed -E 's/^packages\+?=\(//; s/\)$//' | tr '\n' ' ') "
for entry in "${package_commands[@]}"; do
  package=${entry%%:*}
  if [[ "$deps_packages" == *" $package "* ]]; then
    for w in ${entry#*:}; do allowed[$w]=1; done
  fi
done

# Prints "line word" for the first word of each command in a bash script.
# mawk-compatible (no gawk on a minimal Debian).
scan_shell() {
  awk '
    # Lexes the script a character at a time, across lines: quoted text
    # becomes \002 (a word no command has), $( and ` become \001 (a command
    # starts after it), name=( ... ) arrays and comments vanish.
    heredoc != "" { t = $0; sub(/^\t+/, "", t); if (t == heredoc) heredoc = ""; next }
    {
      out = ""; n = length($0); prev = " "
      for (k = 1; k <= n; k++) {
        c = substr($0, k, 1)
        if (mode == "sq") { if (c == "\047") { mode = "normal"; out = out "\002" } ; continue }
        if (mode == "array") {
          if (c == "#" && prev ~ /[ \t]/) break
          if (c == ")") mode = "normal"
          prev = c; continue
        }
        if (mode == "arith") {
          if (c == "(") adepth++
          if (c == ")" && --adepth == 0) mode = "normal"
          continue
        }
        if (mode == "dq") {
          if (c == "\\") { k++; continue }
          if (c == "\"") { mode = "normal"; out = out "\002"; continue }
          if (c == "$" && substr($0, k + 1, 1) == "(" && substr($0, k + 2, 1) != "(") {
            k++; depth++; sp++; back[sp] = depth; mode = "normal"; out = out "\001"
          }
          continue
        }
        # normal
        if (c == "#" && prev ~ /[ \t;]/) break
        if (c == "\\") { k++; out = out " "; prev = " "; continue }
        if (c == "\047") { mode = "sq"; prev = c; continue }
        if (c == "\"") { mode = "dq"; prev = c; continue }
        if (c == "(" && prev == "=") { mode = "array"; prev = " "; continue }
        if (substr($0, k, 2) == "((" || substr($0, k, 3) == "$((") {
          mode = "arith"; adepth = 0; if (c == "$") k++; k--; out = out " "; prev = " "; continue
        }
        if (c == "`") { out = out "\001"; prev = c; continue }
        if (c == "$" && substr($0, k + 1, 1) == "(") { k++; depth++; out = out "\001"; prev = "("; continue }
        if (c == "(") depth++
        if (c == ")") {
          if (sp > 0 && back[sp] == depth) { sp--; depth--; mode = "dq"; continue }
          depth--
        }
        out = out c; prev = c
      }
      if (mode == "") mode = "normal"
      line = out
      gsub(/<<</, " ", line)
      tag = ""
      if (match($0, /<<-?[ \t]*[\047"]?[A-Za-z_][A-Za-z_0-9]*/) && $0 !~ /<<</) {
        tag = substr($0, RSTART, RLENGTH); sub(/^<<-?[ \t]*[\047"]?/, "", tag)
      }
      gsub(/\$\{[^}]*\}/, "$v", line)                          # ${...}
      gsub(/[0-9]*[<>]+&?[-0-9]*/, " ", line)                  # redirections
      ns = split(line, seg, /&&|\|\||[;|&(){}\001!]/)
      for (i = 1; i <= ns; i++) {
        m = split(seg[i], w, /[ \t]+/)
        j = 1
        while (j <= m && (w[j] == "" || w[j] ~ /^[A-Za-z_][A-Za-z_0-9]*\+?=/ || \
               w[j] ~ /^(then|else|elif|do|while|until|if|time|exec|command|builtin|env|nohup)$/)) j++
        if (j > m || w[j] ~ /^(for|case|select|function|local|declare|export|readonly|typeset)$/) continue
        if (w[j] ~ /^[A-Za-z_.\/][A-Za-z0-9_.+\/-]*$/) print NR, w[j]
      }
      if (tag != "") heredoc = tag
    }
    ' "$1"
}

unknown=0
report() {  # report <file> <line> <word>
  local file=$1 line=$2 word=$3
  [[ -n "${allowed[$word]:-}" ]] && return
  if [[ "$word" == */* ]]; then
    [[ "$word" == build/* || "$word" == ./build/* || -e "$word" || -e "$(dirname "$file")/$word" ]] && return
    echo "$file:$line: $word is not in the repository"
    unknown=1
    return
  fi
  echo "$file:$line: $word is neither in a minimal Debian 12 nor installed by scripts/install-deps.sh"
  unknown=1
}

shopt -s nullglob globstar
for file in scripts/*.sh .ci/run tests/cli/*.sh tests/support/*.sh tests/fourth_system/*.sh; do
  [[ -f "$file" ]] || continue
  # Functions the script defines are its own commands.
  # So are those of the files it sources by a path beside it
  # (source "$(dirname "$0")/../support/cli_checks.sh"), which are scanned too.
  declare -A own=()
  defines=("$file")
  for sourced in $(sed -nE 's/^[[:space:]]*(source|\.)[[:space:]]+"\$\(dirname "\$0"\)\/([^"]+)".*/\2/p' "$file"); do
    defines+=("$(dirname "$file")/$sourced")
  done
  for f in $(grep -ohE '^[[:space:]]*(function[[:space:]]+)?[A-Za-z_][A-Za-z0-9_-]*[[:space:]]*\(\)' "${defines[@]}" |
             sed -E 's/^[[:space:]]*(function[[:space:]]+)?//; s/[[:space:]]*\(\)$//'); do
    own[$f]=1
  done
  while read -r line word; do
    [[ -n "${own[$word]:-}" ]] && continue
    report "$file" "$line" "$word"
  done < <(scan_shell "$file")
  unset own
done
for file in tests/**/CMakeLists.txt; do
  while IFS=: read -r line word; do
    report "$file" "$line" "$word"
  done < <(grep -noE '\bCOMMAND[[:space:]]+[^[:space:]$)"]+' "$file" | sed -E 's/COMMAND[[:space:]]+//')
done
exit $unknown
