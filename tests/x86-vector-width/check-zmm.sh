#!/usr/bin/env bash
# x86-64 kernels keep their 64-byte vectors in zmm registers on every AVX-512 CPU, also on
# those that LLVM tunes to prefer 256-bit vectors (Skylake-X, Ice Lake, Sapphire Rapids), and
# in ymm registers on AVX2 ones. The kernel functions that stay out of line (the glow_ks_
# ones: the Winograd conv's unit) once carried clang's min-legal-vector-width of "0" and were
# split into ymm halves there: resnet18 took 46 ms at one thread on a Sapphire Rapids core
# instead of 22. LLVM's vectorizer also takes that preference (x * sigmoid(x) epilogues in ymm
# halves: 1.33 ms for 1.2M floats, 1.04 in zmm): the x86-64 target sets its own. A model of a
# 3x3 conv that is a Winograd step and an Exp step is compiled (no run: any x86-64 machine
# checks every CPU) and its objects disassembled.
#   check-zmm.sh <model-compiler> <python with onnx> <work dir>
set -euo pipefail
mc=$1 py=$2 work=$3
command -v objdump >/dev/null || { echo "skipped: objdump not found (binutils)"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
"$py" - "$work/conv3x3.onnx" <<'PY'
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save
w = numpy_helper.from_array(np.random.RandomState(1).randn(32, 16, 3, 3).astype(np.float32), "w")
conv = helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])
exp = helper.make_node("Exp", ["x"], ["e"])
g = helper.make_graph([conv, exp], "conv3x3", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 16, 16])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32, 16, 16]),
                       helper.make_tensor_value_info("e", TensorProto.FLOAT, [1, 16, 16, 16])], [w])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
PY
fails=0
# <cpu> <register class the unit's vectors must be in>
for spec in "sapphirerapids zmm" "icelake-server zmm" "skylake-avx512 zmm" "znver4 zmm" "x86-64-v4 zmm" \
            "x86-64-v3 ymm"; do
  read -r cpu want <<<"$spec"
  out=$work/$cpu
  "$mc" -model="$work/conv3x3.onnx" -emit-bundle="$out" -network-name=m -target=x86_64-linux-gnu -mcpu="$cpu" \
    -dump-graph-DAG="$out/graph.dot" >/dev/null
  grep -q ConvWinograd "$out/graph.dot" || { echo "FAIL: $cpu: the 3x3 conv is not a Winograd step"; exit 1; }
  unit=$(objdump -d --no-show-raw-insn "$out/m.o" | awk '/<glow_ks_wino_unit_[0-9]+>:/,/^$/')
  [ -n "$unit" ] || { echo "FAIL: $cpu: no glow_ks_wino_unit function in the object"; exit 1; }
  fma_want=$(grep -cP "\tvfmadd\w+ps\s.*%$want" <<<"$unit" || true)
  fma_other=$(grep -P "\tvfmadd\w+ps\s" <<<"$unit" | grep -vc "%$want" || true)
  echo "$cpu: Winograd unit: $fma_want packed FMAs on $want, $fma_other on other registers"
  if [ "$fma_want" -lt 16 ] || [ "$fma_other" -gt "$fma_want" ]; then
    echo "FAIL: $cpu: the Winograd unit's products are not in $want registers"
    fails=1
  fi
  # The Exp step is a loop that LLVM vectorizes (as it does the conv epilogues): its widest
  # packed multiplies are in the same registers.
  step=$(objdump -d --no-show-raw-insn "$out/m.o" | awk '/<m\.step[0-9]+\.Exp>:/,/^$/')
  mul_want=$(grep -cP "\tv(fmadd\w+|mul)ps\s.*%$want" <<<"$step" || true)
  echo "$cpu: Exp step: $mul_want packed multiplies on $want"
  if [ "$mul_want" -lt 4 ]; then
    echo "FAIL: $cpu: the Exp step's vectorized loop is not in $want registers"
    fails=1
  fi
done
exit $fails
