#!/usr/bin/env bash
# Which 3x3 convs run by Winograd depends on the CPU (compiler/codegen/target-machine.c,
# glow_target_winograd): planes of 14 x 14 and more, but of 400 outputs (20 x 20) and more
# on the x86-64 target's fma512_cpus (Zen 5). A chain of 16 -> 16 3x3 convs on 20 x 20,
# 18 x 18, 16 x 16 and 14 x 14 planes (400, 324, 256 and 196 outputs): 4 by Winograd for
# znver4, x86-64-v3 and AArch64's neoverse-n1, 1 for znver5.
#   check-winograd-cpu.sh <model-compiler> <python3 with onnx>
set -u
mc=$1 py=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$py" - "$work/chain.onnx" <<'PY' || exit 1
import sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
rng = np.random.default_rng(1)
nodes, inits, prev = [], [], "input"
for i, pad in enumerate([1, 0, 0, 0]):  # 20 x 20 -> 20, 18, 16, 14
    w = numpy_helper.from_array((rng.standard_normal((16, 16, 3, 3)) * 0.1).astype(np.float32), f"w{i}")
    inits.append(w)
    out = "output" if i == 3 else f"c{i}"
    nodes.append(helper.make_node("Conv", [prev, f"w{i}"], [out], kernel_shape=[3, 3], pads=[pad] * 4))
    prev = out
g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 16, 20, 20])],
                      [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 16, 14, 14])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 8
onnx.save(m, sys.argv[1])
PY
status=0
check() { # <want> <options...>
  local want=$1
  shift
  local got
  got=$("$mc" -model="$work/chain.onnx" -emit-bundle="$work/out" -verbose "$@" 2>&1 |
    sed -n 's/^winograd: \([0-9]*\) float32 3x3 convs.*/\1/p')
  if [ "${got:-0}" != "$want" ]; then
    echo "FAIL: $*: ${got:-0} convs by Winograd, want $want"
    status=1
  else
    echo "ok: $*: $want of 4 convs by Winograd"
  fi
}
check 4 -mcpu=znver4
check 1 -mcpu=znver5
check 4 -mcpu=x86-64-v3
check 4 -target=aarch64-linux-gnu -mcpu=neoverse-n1
exit $status
