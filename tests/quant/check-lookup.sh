#!/usr/bin/env bash
# int8 lookup tables (quant/fold-lookup.c) on gen-lookup-model.py's model:
# 1. run-cosine.sh: quantized from a profile, the graph holds IntLookupTable and no float
#    activation is left, and the outputs keep cosine >= 0.99 to the float model's;
# 2. the same int8 model without the tables (-disable-pass=fold-lookup: the activations in
#    float between DequantizeLinear and QuantizeLinear) gives nearly the same outputs: the
#    tables hold what those steps compute (f in double there, in float here, so a value on
#    a rounding edge may move one step): cosine >= 0.99999 (1.0000000 here; a zero point one
#    step off in either kind of table read 0.99989).
#   check-lookup.sh <model-compiler> <model-profiler> <cc> <glowc source> <model.onnx> <work dir>
#   GLOWC_QUANT_OPTIONS, GLOWC_EXPECT_QTYPE: as run-cosine.sh's, for both int8 compiles
#   check-lookup.sh ... --qdq: the model is gen-lookup-model.py's pre-quantized (QDQ, uint8) one: no
#   profile; step 1 is the graph's check alone (uint8 tables, after fold-qdq).
set -euo pipefail
mc=$1 mp=$2 cc=$3 src=$4 model=$5 work=$6
if [ "${7-}" = --qdq ]; then
  rm -rf "$work"
  /usr/bin/python3 "$src/tests/accuracy/random-inputs.py" "$model" "$work/inputs" 8 1 >/dev/null
  "$mc" -model="$model" -emit-bundle="$work" -network-name=model_int8 -bundle-api=dynamic \
    -dump-after=dead-nodes 2>"$work/dumps.ir"
  awk '/^; IR after/ { ir = "" } { ir = ir $0 "\n" } END { printf "%s", ir }' "$work/dumps.ir" >"$work/quantized.ir"
  n=$(grep -c " uint8\[[0-9,]*\] = IntLookupTable " "$work/quantized.ir" || true)
  [ "$n" = 3 ] || { echo "FAIL: $n uint8 tables, not 3:"; cat "$work/quantized.ir"; exit 1; }
  echo "graph: $n x IntLookupTable (uint8)"
else
  GLOWC_EXPECT_INT8_OPS="IntLookupTable QLinearConv QLinearMul" bash "$src/tests/accuracy/run-cosine.sh" "$@"
fi
left=$(grep -c " = \(Sigmoid\|Tanh\|HardSwish\|LeakyRelu\|HardSigmoid\|Mul\) " "$work/quantized.ir" || true)
[ "$left" = 0 ] || { echo "FAIL: $left float activations left beside the tables:"; cat "$work/quantized.ir"; exit 1; }
profile=(-dump-after=fold-qdq)
[ "${7-}" = --qdq ] || profile=(-load-profile="$work/profile.yml" -dump-after=quantize)
"$mc" -model="$model" -emit-bundle="$work" -network-name=model_plain -bundle-api=dynamic "${profile[@]}" \
  -disable-pass=fold-lookup ${GLOWC_QUANT_OPTIONS-} 2>"$work/plain.ir"
plain=$(grep -c " = IntLookupTable " "$work/plain.ir" || true)
grep -q " = QLinearConv \| = Concat " "$work/plain.ir" || { echo "FAIL: no IR dumped:"; cat "$work/plain.ir"; exit 1; }
[ "$plain" = 0 ] || { echo "FAIL: -disable-pass=fold-lookup still made $plain tables"; exit 1; }
$cc -O2 -std=c11 -o "$work/tables-cosine" "$src/tests/accuracy/logits-cosine.c" "$src/runtime/runtime.c" \
  "$work/model_plain.o" "$work/model_int8.o" -I"$work" -I"$src/runtime" \
  -DF32_NET=model_plain -DINT8_NET=model_int8 -DF32_HEADER='"model_plain.h"' -DINT8_HEADER='"model_int8.h"' -lm
GLOWC_MIN_COSINE=0.99999 "$work/tables-cosine" "$work/model_plain.weights.bin" "$work/model_int8.weights.bin" \
  "$work"/inputs/*.bin
