#!/usr/bin/env bash
# A .tflite model as -model everywhere (issue 26), on make-model.py's tiny.tflite (one
# FULLY_CONNECTED with a fused RELU):
#   run          model-compiler + glowc-run: y as numpy computes it
#   profile      model-profiler over two rawtxt samples names x:0 and y:0; the bundle quantized
#                with that profile (-load-profile) is within 2% of y's range
#   entry-inputs -entry with a .tflite model: -model-input=x goes to it (its declared inputs read
#                by importer/input-names.c); with -tflite-rename-tensors its input is tensor0
#   dump-graph   -tflite-dump-graph writes the imported graph (model-compiler, also with a compile
#                cache it bypasses, and model-profiler); refused with -entry
#   check-tflite-model.sh <case> <model-compiler> <model-profiler> <glowc-run> <model dir> <work dir>
set -u
case=$1 mc=$2 mp=$3 run=$4 models=$5 work=$6/$1
rm -rf "$work"
mkdir -p "$work"
status=0
fail() { echo "FAIL: $*"; status=1; }
tiny=$models/tiny.tflite
# close <y.npy> <tolerance>: |y - expected.txt| <= tolerance
close() {
  /usr/bin/python3 - "$1" "$models/expected.txt" "$2" <<'PY'
import sys
import numpy as np
y, want = np.load(sys.argv[1]).astype(np.float64).ravel(), np.loadtxt(sys.argv[2], ndmin=1)
print("y", y, "expected", want)
sys.exit(0 if y.shape == want.shape and np.abs(y - want).max() <= float(sys.argv[3]) else 1)
PY
}
run_bundle() { # <bundle dir> <net>: y.npy in <bundle dir>/out
  mkdir -p "$1/out"
  "$run" -bundle="$1/$2.o" -input=x="$models/x.npy" -output-dir="$1/out" >/dev/null
}

case $case in
run)
  "$mc" -model="$tiny" -emit-bundle="$work/b" -bundle-api=dynamic || exit 1
  grep -q '^//   input  "x" as x: float\[1,4\]' "$work/b/tiny.h" || fail "header: no input x float[1,4]"
  run_bundle "$work/b" tiny && close "$work/b/out/y.npy" 1e-6 || fail "y differs from numpy's" ;;
profile)
  mkdir -p "$work/samples"
  cp "$models/x.txt" "$work/samples/a.txt"
  echo "0.5 -1 2 1" >"$work/samples/b.txt"
  "$mp" -model="$tiny" -input-dataset=x,rawtxt,"$work/samples" -dump-profile="$work/p.yml" || exit 1
  for v in x y; do
    grep -q "NodeOutputName: '$v:0'" "$work/p.yml" || fail "profile: no entry for $v:0"
  done
  "$mc" -model="$tiny" -load-profile="$work/p.yml" -emit-bundle="$work/q" -bundle-api=dynamic || exit 1
  run_bundle "$work/q" tiny && close "$work/q/out/y.npy" 0.11 || fail "int8 y further than 2% of its range" ;;
entry-inputs)
  /usr/bin/python3 - "$work/neg.onnx" <<'PY' || exit 1
import sys
from onnx import TensorProto, helper
v = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT, [2])
g = helper.make_graph([helper.make_node("Neg", ["a"], ["b"])], "neg", [v("a")], [v("b")])
open(sys.argv[1], "wb").write(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
PY
  "$mc" -model="$work/neg.onnx" -entry=tiny,"$tiny" -model-input=x,float,[1,4] -emit-bundle="$work/e" \
    -network-name=e || exit 1
  grep -q '^//   tiny: input x; output y$' "$work/e/e.h" || fail "-model-input=x did not go to the .tflite entry"
  "$mc" -model="$work/neg.onnx" -entry=tiny,"$tiny" -model-input=tensor0,float,[1,4] -tflite-rename-tensors \
    -emit-bundle="$work/r" -network-name=r || exit 1
  grep -q '^//   tiny: input tensor0; output tensor3$' "$work/r/r.h" || fail "renamed: tensor0 not tiny's input"
  msg=$("$mc" -model="$work/neg.onnx" -entry=tiny,"$tiny" -model-input=x,float,[1,4] -tflite-rename-tensors \
        -emit-bundle="$work/bad" -network-name=bad 2>&1) && fail "renamed: -model-input=x was taken"
  grep -qF "tiny ($tiny): 'tensor0'" <<<"$msg" || fail "renamed: the error does not list tensor0: $msg"
  [ ! -e "$work/bad" ] || fail "a refused compile left $work/bad" ;;
dump-graph)
  "$mc" -model="$tiny" -emit-bundle="$work/b" -tflite-dump-graph="$work/a.dot" || exit 1
  grep -q '^digraph' "$work/a.dot" || fail "model-compiler wrote no graph"
  for k in 1 2; do # the second compile is a cache hit, but the graph is written (the cache is bypassed)
    rm -f "$work/c.dot"
    "$mc" -model="$tiny" -emit-bundle="$work/c$k" -cache-dir="$work/cache" -tflite-dump-graph="$work/c.dot" || exit 1
    [ -s "$work/c.dot" ] || fail "compile $k with -cache-dir wrote no graph"
  done
  "$mp" -model="$tiny" -input-dataset=x,rawtxt,"$models/x.txt" -dump-profile="$work/p.yml" \
    -tflite-dump-graph="$work/p.dot" || exit 1
  grep -q '^digraph' "$work/p.dot" || fail "model-profiler wrote no graph"
  msg=$("$mc" -model="$tiny" -entry=second,"$tiny" -emit-bundle="$work/e" -tflite-dump-graph="$work/e.dot" 2>&1) &&
    fail "-tflite-dump-graph with -entry was taken"
  grep -q "^-tflite-dump-graph: error: not with -entry" <<<"$msg" || fail "the -entry refusal: $msg" ;;
*)
  echo "unknown case $case"
  exit 2 ;;
esac
[ $status = 0 ] && echo "ok: $case"
exit $status
