#!/usr/bin/env bash
# -disable-pass: turning off an optimizing pass changes the bundle as it says (the digits CNN
# keeps its BatchNormalization nodes without fold-batchnorm, its Relus without fuse-epilogue:
# more nodes after optimization, another object), -print-passes lists every pass in order
# (the graph, quant and codegen stages).
#   check-disable-pass.sh <model-compiler> <digits.onnx>
set -u
mc=$1 model=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
nodes() { # <out dir> [options]: the node count -verbose reports
  local out=$1
  shift
  mkdir -p "$out"
  "$mc" -model="$model" -emit-bundle="$out" -verbose "$@" 2>&1 | sed -n 's/.* \([0-9]*\) nodes after optimization/\1/p'
}
base=$(nodes "$work/base")
for pass in fold-batchnorm fuse-epilogue; do
  n=$(nodes "$work/$pass" -disable-pass=$pass)
  if [ -z "$n" ] || [ "$n" -le "$base" ] || cmp -s "$work/base/digits.o" "$work/$pass/digits.o"; then
    echo "FAIL: -disable-pass=$pass: $n nodes (default $base), objects differ: $(cmp -s "$work/base/digits.o" "$work/$pass/digits.o" || echo yes)"
    status=1
  else
    echo "ok: -disable-pass=$pass keeps $n nodes where the default keeps $base"
  fi
done
list=$("$mc" -print-passes)
want="infer-fold fold-batchnorm fold-qdq (plugins) fold-lookup materialize-outputs pack-weights dead-nodes quantize fold-lookup pack-weights dead-nodes assert-quantized fuse-epilogue winograd pack-conv-weights fuse-conv-pool dead-nodes"
got=$(awk 'NR > 1 {print $1}' <<<"$list" | xargs)
[ "$got" = "$want" ] || { echo "FAIL: -print-passes lists '$got', want '$want'"; status=1; }
exit $status
