#!/usr/bin/env bash
# glowc-run end to end: an ONNX node test's bundle run on .npy inputs made from its
# input_N.pb, its .npy output compared with output_0.pb (numpy, rtol 1e-5); -runs prints
# percentiles; a wrong dtype, a missing input, a bundle of another name and a CUDA bundle
# on a machine without a driver each exit 1 with the reason; nothing is written then.
#   check-glowc-run.sh <glowc-run> <model-compiler> <python with onnx> <node test dir>
set -u
run=$1 mc=$2 py=$3 case=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

"$mc" -model="$case/model.onnx" -emit-bundle="$work" -network-name=net -bundle-api=dynamic || exit 1
"$py" - "$case/test_data_set_0" "$work" <<'PY' || exit 1
import glob, os, sys
import numpy as np
from onnx import TensorProto, numpy_helper
src, dst = sys.argv[1:]
for f in sorted(glob.glob(os.path.join(src, "input_*.pb"))):
    t = TensorProto()
    t.ParseFromString(open(f, "rb").read())
    np.save(os.path.join(dst, t.name + ".npy"), numpy_helper.to_array(t))
    np.save(os.path.join(dst, t.name + "-as-f64.npy"), numpy_helper.to_array(t).astype(np.float64))
PY
inputs=()
for f in "$work"/*.npy; do
  case $f in *-as-f64.npy) continue ;; esac
  n=$(basename "$f" .npy)
  inputs+=("-input=$n=$f")
done

mkdir "$work/out"
if out=$("$run" -bundle="$work/net.o" "${inputs[@]}" -output-dir="$work/out" -runs=20 2>&1); then
  echo "$out"
  grep -Eq "latency over 20 runs .*median [0-9.]+ ms, p90 [0-9.]+ ms, p99 [0-9.]+ ms" <<<"$out" || fail "no percentiles"
  "$py" - "$case/test_data_set_0" "$work/out" <<'PY' || fail "outputs differ from the test's"
import glob, os, sys
import numpy as np
from onnx import TensorProto, numpy_helper
src, out = sys.argv[1:]
for f in sorted(glob.glob(os.path.join(src, "output_*.pb"))):
    t = TensorProto()
    t.ParseFromString(open(f, "rb").read())
    want, got = numpy_helper.to_array(t), np.load(os.path.join(out, t.name + ".npy"))
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    assert np.allclose(got, want, rtol=1e-5, atol=1e-6), abs(got - want).max()
    print("output %s: %s%s matches" % (t.name, got.dtype, list(got.shape)))
PY
else
  fail "glowc-run failed: $out"
fi

expect() { # name, pattern, glowc-run arguments...: exit 1, the pattern in the output, no output written
  local name=$1 want=$2
  shift 2
  rm -rf "$work/bad" && mkdir "$work/bad"
  out=$("$run" "$@" -output-dir="$work/bad" 2>&1)
  rc=$?
  if [ "$rc" -ne 1 ] || ! grep -Eq "$want" <<<"$out" || [ -n "$(ls "$work/bad")" ]; then
    fail "$name: exit $rc, want 1 and /$want/ and no files; output: $out"
  else
    echo "ok ($name): $out"
  fi
}
first=${inputs[0]#-input=}
first_name=${first%%=*}
f64=("-input=$first_name=$work/$first_name-as-f64.npy" "${inputs[@]:1}")
expect "wrong dtype" "input '$first_name' is float\[.*given double\[" -bundle="$work/net.o" "${f64[@]}"
expect "missing input" "no values for input '$first_name'" -bundle="$work/net.o" "${inputs[@]:1}"
expect "another name" "defines no other_config.*-network-name" -bundle="$work/net.o" -network-name=other "${inputs[@]}"
"$mc" -model="$case/model.onnx" -emit-bundle="$work" -network-name=gpu -bundle-api=dynamic \
  -target=nvptx64-nvidia-cuda || exit 1
GLOWC_CUDA_DRIVER=/nonexistent/libcuda.so.1 expect "CUDA bundle, no driver" "no CUDA driver: cannot load" \
  -bundle="$work/gpu.o" "${inputs[@]}"
# Many outputs: 20 of them (the output set once held 16 files), each Neg(x) * k, all written.
"$py" - "$work/many.onnx" "$work/manyx.npy" <<'PY' || fail "cannot write the 20-output model"
import sys
import onnx
from onnx import TensorProto, helper, numpy_helper
import numpy as np
nodes, outs, inits = [], [], []
for k in range(20):
    inits.append(numpy_helper.from_array(np.float32(k + 1), "k%d" % k))
    nodes.append(helper.make_node("Mul", ["x", "k%d" % k], ["y%d" % k]))
    outs.append(helper.make_tensor_value_info("y%d" % k, TensorProto.FLOAT, [3]))
g = helper.make_graph(nodes, "many", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])], outs, inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 7
onnx.save(m, sys.argv[1])
np.save(sys.argv[2], np.array([1, -2, 3], np.float32))
PY
rm -rf "$work/many" && mkdir "$work/many"
if "$mc" -model="$work/many.onnx" -emit-bundle="$work" -network-name=many -bundle-api=dynamic &&
  "$run" -bundle="$work/many.o" -input=x="$work/manyx.npy" -output-dir="$work/many"; then
  n=$(ls "$work/many" | grep -c '\.npy$' || true)
  "$py" -c "import numpy as np, sys; d = sys.argv[1]
for k in range(20): assert (np.load('%s/y%d.npy' % (d, k)) == np.array([1, -2, 3], np.float32) * (k + 1)).all(), k" \
    "$work/many" && [ "$n" = 20 ] && echo "ok (20 outputs): all written and right" ||
    fail "20 outputs: $n files written, or wrong values"
else
  fail "the 20-output model does not compile or run"
fi
exit $status
