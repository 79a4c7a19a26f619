#!/usr/bin/env bash
# Cache keys are stable: model-compiler -print-cache-key gives, for the command lines of
# cache-keys.txt, the keys stored there (first recorded at 00cd14e with the hand-written SHA-256
# that nettle replaced, so this showed the switch kept every key byte-identical).
# A key changes, rightly, when glowc's version, the bundle format or a target's kernels change.
# The file also holds a fingerprint of what the test can see of those (the version line and
# every target's kernel bitcode, hashed by coreutils): where it differs the stored keys are not
# comparable, and the test says "skipped" (exit 77) until they are recorded again:
#   check-cache-key.sh <model-compiler> <model.onnx> <cache-keys.txt> <targets build dir> [--record]
set -eu
mc=$1
model=$2
keys=$3
bcdir=$4
record=${5-}
fp=$({ "$mc" -version; cat "$bcdir"/kernels-*.bc; } | sha256sum | cut -d' ' -f1)
stored=$(sed -n 's/^# fingerprint: //p' "$keys")
if [ "$record" != --record ] && [ "$fp" != "$stored" ]; then
  echo "skipped: the kernels or the version changed since the keys were recorded (fingerprint $fp, stored"
  echo "${stored:-none}), so the stored keys are not comparable; record them again:"
  echo "  $0 $mc $model $keys $bcdir --record"
  exit 77
fi
tab=$(printf '\t')
out=$(mktemp)
trap 'rm -f "$out"' EXIT
bad=0
while IFS="$tab" read -r want opts; do
  case "$want" in "# fingerprint: "*) continue ;; "#"* | "") echo "$want${opts:+$tab$opts}" >>"$out"; continue ;; esac
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
  echo "# fingerprint: $fp" >>"$out"
  cp "$out" "$keys"
  echo "recorded in $keys"
  exit 0
fi
[ "$bad" = 0 ] || { echo "FAIL: keys changed (if on purpose, run again with --record)"; exit 1; }
echo "PASS"
