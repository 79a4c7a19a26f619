#!/usr/bin/env bash
# Quantization of a real model end to end: 32 random calibration images, a
# profile by model-profiler, float and int8 bundles by model-compiler, linked with
# logits-cosine.c and the runtime, then 8 other random images through both:
# every output's cosine similarity to the float one must be >= 0.99.
#   run-cosine.sh <model-compiler> <model-profiler> <cc> <glowc source> <model.onnx> <work dir> [compiler options...]
#   GLOWC_EXPECT_INT8_OPS  ops the quantized graph must hold with int8 outputs (e.g. "QLinearConv Flatten")
set -euo pipefail
mc=$1 mp=$2 cc=$3 src=$4 model=$5 work=$6
shift 6
rm -rf "$work"
shape=$(/usr/bin/python3 "$src/tests/accuracy/random-inputs.py" "$model" "$work/calibration" 32 0)
/usr/bin/python3 "$src/tests/accuracy/random-inputs.py" "$model" "$work/inputs" 8 1 >/dev/null
echo "input ${shape}: 32 calibration and 8 test images"
start=$(date +%s)
"$mp" -model="$model" -input-dataset=input,rawbin,"$work/calibration" -dump-profile="$work/profile.yml"
echo "profiled in $(($(date +%s) - start)) s"
"$mc" -model="$model" -emit-bundle="$work" -network-name=model_f32 -bundle-api=dynamic "$@"
"$mc" -model="$model" -emit-bundle="$work" -network-name=model_int8 -bundle-api=dynamic \
  -load-profile="$work/profile.yml" -dump-after=quantize "$@" 2>"$work/quantized.ir"
for op in ${GLOWC_EXPECT_INT8_OPS-}; do
  n=$(grep -cE "int8\[[0-9,]*\] = $op " "$work/quantized.ir" || true)
  [ "$n" -gt 0 ] || { echo "the quantized graph has no int8 $op:"; cat "$work/quantized.ir"; exit 1; }
  echo "quantized graph: $n x int8 $op"
done
$cc -O2 -std=c11 -o "$work/logits-cosine" "$src/tests/accuracy/logits-cosine.c" "$src/runtime/runtime.c" \
  "$work/model_f32.o" "$work/model_int8.o" -I"$work" -I"$src/runtime" \
  -DF32_NET=model_f32 -DINT8_NET=model_int8 -DF32_HEADER='"model_f32.h"' -DINT8_HEADER='"model_int8.h"' -lm
"$work/logits-cosine" "$work/model_f32.weights.bin" "$work/model_int8.weights.bin" "$work"/inputs/*.bin
