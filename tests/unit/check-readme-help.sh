#!/usr/bin/env bash
# --help tells the truth, and so does the README: the CLI reference in README.md
# (the block opening "USAGE: <tool>") is exactly what `<tool> -help` prints (the
# host triple left out). Tools: model-compiler, model-profiler, glowc-run, image-classifier, glowc-cache.
#   check-readme-help.sh <tool binary> <README.md>
set -eu
tool=$1
readme=$2
name=$(basename "$tool")
want=$("$tool" -help | sed -E "s/\(default: the host's, [^)]*\)/(default: the host's)/")
got=$(awk -v start="USAGE: $name " 'index($0, start) == 1 {on=1} on&&/^```/{exit} on' "$readme")
if [ "$want" != "$got" ]; then
  diff <(echo "$want") <(echo "$got") || true
  echo "README.md's CLI reference differs from $name -help (left: -help, right: README)"
  exit 1
fi
echo "README.md's CLI reference matches $name -help"
