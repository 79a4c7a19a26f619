#!/usr/bin/env bash
# Cache keys are stable: model-compiler -print-cache-key gives, for the command lines of
# cache-keys.txt, the keys stored there (recorded at 00cd14e with the hand-written SHA-256 that
# libcrypto replaced, so this shows the switch kept every key byte-identical).
# A key changes, rightly, when glowc's version, the bundle format or a target's kernels change:
# then record the keys again (and say why in the commit):
#   check-cache-key.sh <model-compiler> <model.onnx> <cache-keys.txt> [--record]
set -eu
mc=$1
model=$2
keys=$3
record=${4-}
tab=$(printf '\t')
out=$(mktemp)
trap 'rm -f "$out"' EXIT
bad=0
while IFS="$tab" read -r want opts; do
  case "$want" in "#"* | "") echo "$want${opts:+$tab$opts}" >>"$out"; continue ;; esac
  # shellcheck disable=SC2086 # opts is a list of options
  got=$("$mc" -model="$model" -emit-bundle=/nonexistent/glowc-key-test $opts -print-cache-key) ||
    { echo "FAIL: -print-cache-key failed for: $opts"; exit 1; }
  printf '%s\t%s\n' "$got" "$opts" >>"$out"
  if [ "$got" != "$want" ]; then
    echo "FAIL: $opts: key $got, stored $want"
    bad=1
  else
    echo "ok: $opts: $got"
  fi
done <"$keys"
if [ "$record" = --record ]; then
  cp "$out" "$keys"
  echo "recorded in $keys"
  exit 0
fi
[ "$bad" = 0 ] || { echo "FAIL: keys changed (if on purpose, run again with --record)"; exit 1; }
echo "PASS"
