#!/usr/bin/env bash
# --help tells the truth, and so does the README: the CLI reference in README.md
# is exactly what `model-compiler -help` prints (the host triple left out).
set -eu
mc=$1
readme=$2
want=$("$mc" -help | sed -E "s/\(default: the host's, [^)]*\)/(default: the host's)/")
got=$(awk '/^USAGE: model-compiler/{on=1} on&&/^```/{exit} on' "$readme")
if [ "$want" != "$got" ]; then
  diff <(echo "$want") <(echo "$got") || true
  echo "README.md's CLI reference differs from model-compiler -help (left: -help, right: README)"
  exit 1
fi
echo "README.md's CLI reference matches model-compiler -help"
