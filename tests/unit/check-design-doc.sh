#!/usr/bin/env bash
# docs/design.md names only what exists. Every `backquoted` name of its prose (fenced code
# blocks are examples and not checked) must be found in the project:
#   a path (a '/' in it; <x> matches any one name): a file or folder, from the top or from
#     compiler/, targets/ or targets/common/ (../shared/ is outside the project: skipped);
#   a file name (pipeline.c, ops.def): some file of the project has it;
#   an option (-print-passes, -target=<triple>): a name in compiler/driver/options.def;
#   an identifier (glow_kcall_split, GLOW_KERNEL_PART, x86_zmm; name() and name[] too): a
#     word of the project's sources;
#   anything else: each glow_/GLOW_/glowc_/GLOWC_ word in it is such a word.
#   check-design-doc.sh <source dir>
set -euo pipefail
src=$1
doc=docs/design.md
cd "$src"
[ -f "$doc" ] || { echo "check-design-doc: no $src/$doc"; exit 1; }

# The project's files: git's list in a clone, else every file but build output.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files)
else
  files=$(find . -path ./.git -prune -o -path './build*' -prune -o -type f -print | sed 's|^\./||')
fi
sources=$(grep -E '\.(c|h|def|cmake|bzl|sh|py|proto|fbs|in)$|(CMakeLists\.txt|BUILD|WORKSPACE)$' <<<"$files")
words=$(mktemp)
trap 'rm -f "$words"' EXIT
# shellcheck disable=SC2086
tr -cs 'A-Za-z0-9_' '\n' < <(cat $sources) | sort -u >"$words"
basenames=$(sed 's|.*/||' <<<"$files" | sort -u)
options=$(grep -oE '\.name = "[^"]+"' compiler/driver/options.def | sed 's/.*"\(.*\)"/\1/' | sort -u)

status=0
nchecked=0
miss() { echo "$doc:$1: $2"; status=1; }
has_word() { grep -qxF -- "$1" "$words"; }
path_exists() {
  local p=${1%/} base pat
  p=$(sed -E 's/<[^>]*>/*/g' <<<"$p")
  for base in "" compiler/ targets/ targets/common/; do
    for pat in $base$p; do
      [ -e "$pat" ] && return 0
    done
  done
  return 1
}

# line<TAB>token for every inline code span outside fenced blocks.
spans=$(awk '/^[[:space:]]*```/ { fence = !fence; next }
  !fence { s = $0; while (match(s, /`[^`]+`/)) { print NR "\t" substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }' "$doc")
while IFS=$'\t' read -r line tok; do
  [ -n "$tok" ] || continue
  nchecked=$((nchecked + 1))
  if [[ $tok =~ ^-[a-z][a-z0-9-]*($|=|\ ) ]]; then
    name=${tok#-}
    name=${name%%[= ]*}
    grep -qxF -- "$name" <<<"$options" || miss "$line" "option -$name is not in compiler/driver/options.def"
  elif [[ $tok == ../* ]]; then
    :
  elif [[ $tok =~ ^[A-Za-z0-9_.\<\>*-]+(/[A-Za-z0-9_.\<\>*-]+)+/?$ ]]; then
    path_exists "$tok" || miss "$line" "no file or folder $tok"
  elif [[ $tok =~ ^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(c|h|def|cmake|md|sh|py|proto|fbs|bzl)$ ]]; then
    grep -qxF -- "$tok" <<<"$basenames" || miss "$line" "no file named $tok"
  elif [[ $tok =~ ^([A-Za-z_][A-Za-z0-9_]*)(\(\)|\[\])?$ ]]; then
    has_word "${BASH_REMATCH[1]}" || miss "$line" "'${BASH_REMATCH[1]}' is found nowhere in the sources"
  else
    for w in $(grep -oE '\b(glow|GLOW|glowc|GLOWC)_[A-Za-z0-9_]*' <<<"$tok" || true); do
      has_word "$w" || miss "$line" "'$w' (in \`$tok\`) is found nowhere in the sources"
    done
  fi
done <<<"$spans"
[ "$nchecked" -gt 50 ] || miss 1 "only $nchecked names found to check: is the extraction broken?"
[ "$status" = 0 ] && echo "check-design-doc: $nchecked names checked, all found"
exit "$status"
