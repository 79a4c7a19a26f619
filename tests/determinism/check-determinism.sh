#!/usr/bin/env bash
# Determinism: the same model and options, compiled twice from different working
# directories into different output directories (the model copied to two
# different paths too), must give byte-identical bundle files.
#   check-determinism.sh <model-compiler> <model.onnx> [extra options...]
set -eu
mc=$1
model=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for run in a b; do
  mkdir -p "$work/$run/models/deeper-$run" "$work/$run/out"
  cp "$model" "$work/$run/models/deeper-$run/net.onnx"
  (cd "$work/$run" && "$mc" -model="models/deeper-$run/net.onnx" -emit-bundle="$work/$run/out" -network-name=net "$@")
done
status=0
n=0
for f in "$work/a/out/"*; do
  name=$(basename "$f")
  n=$((n + 1))
  if cmp -s "$f" "$work/b/out/$name"; then
    echo "identical: $name ($(stat -c %s "$f") bytes)"
  else
    echo "DIFFERENT: $name"; status=1
  fi
done
[ "$(ls "$work/b/out" | wc -l)" = "$n" ] || { echo "DIFFERENT: file sets differ"; status=1; }
[ -f "$work/a/out/net.o" ] && [ -f "$work/a/out/net.h" ] || { echo "FAIL: no net.o and net.h"; status=1; }
[ "$n" -ge 2 ] || { echo "FAIL: expected at least 2 bundle files, got $n"; status=1; }
exit $status
