#!/usr/bin/env bash
# Symbol names as Glow writes them (issue 24): make-model.py's model compiled with the static
# and the dynamic API; Glow-style clients (static-client.cpp, dynamic-client.cpp) reach every
# tensor by the names Glow gives it, written here and there by hand from Glow's rules; the
# header comment shows both names; glowc-run takes inputs by either name.
#   check-symbol-names.sh <model-compiler> <glowc-run> <python with onnx> "<c++ and flags>"
#                         <glowc_runtime library> <runtime dir> <this dir>
set -u
mc=$1 run=$2 py=$3 cxx=$4 rtlib=$5 rtdir=$6 here=$7
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# The long output "long/" + 595 'a' + ".x" is 602 bytes legalized; Glow keeps 500: the first
# 474, then "_trunc_" and folly's SpookyHash V2 (Hash64, seed 0) of the 602 bytes.
long=long_$(printf 'a%.0s' $(seq 469))_trunc_3741982356879388739

"$py" "$here/make-model.py" "$work/symbols.onnx" || exit 1
for api in static dynamic; do
  "$mc" -model="$work/symbols.onnx" -emit-bundle="$work/$api" -network-name=symbols -bundle-api=$api || exit 1
done

# The header: the macros by Glow's names; the comment gives the model's name and Glow's.
h=$work/static/symbols.h
for sym in gpu_0_data a_b a_b__1 a_b__2 q__1 q__2 A7up gpu_0_softmax a_b__3 "$long" A7up__1; do
  grep -q "^#define SYMBOLS_$sym [0-9]*$" "$h" || fail "static header: no macro SYMBOLS_${sym:0:40}"
done
for pair in '"gpu_0/data" as gpu_0_data:' '"a.b" as a_b:' '"a_b" as a_b__1:' '"a/b" as a_b__2:' \
            '"q:_1" as q__2:' '"7up" as A7up:' '"gpu_0/softmax" as gpu_0_softmax:' '"a-b" as a_b__3:' \
            '"7up" as A7up__1:'; do
  grep -qF "$pair" "$h" || fail "static header comment: no line with $pair"
  grep -qF "$pair" "$work/dynamic/symbols.h" || fail "dynamic header comment: no line with $pair"
done
grep -qE '^//   output "long/a{595}\.x" as '"$long"':' "$h" || fail "static header comment: the long name"

cc_ok() { # source, bundle dir, extra arguments: compiles and links the client
  $cxx -std=c++11 -Wall -Wextra -Werror -DLONG_SYMBOL="$long" -I"$2" -I"$here" -I"$rtdir" "$here/$1" "$2/symbols.o" \
    "${@:3}" -lm -o "$work/${1%.cpp}" || { fail "$1 does not build against the $2 bundle"; return 1; }
}
if cc_ok static-client.cpp "$work/static"; then
  "$work/static-client" || fail "static-client"
fi
if cc_ok dynamic-client.cpp "$work/dynamic" "$rtlib"; then
  "$work/dynamic-client" "$work/dynamic/symbols.weights.bin" || fail "dynamic-client"
fi

# A newline in a name would end the header comment's line and leave the rest as code:
# it is escaped, and the header still compiles.
"$py" - "$work/nl.onnx" <<'PY' || exit 1
import sys
from onnx import TensorProto, helper
v = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT, [1])
g = helper.make_graph([helper.make_node("Neg", ["line\nbreak\\"], ["y"])], "nl", [v("line\nbreak\\")], [v("y")])
open(sys.argv[1], "wb").write(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString())
PY
"$mc" -model="$work/nl.onnx" -emit-bundle="$work/nl" -network-name=nl || exit 1
grep -qF '//   input  "line\x0abreak\\" as line_break_:' "$work/nl/nl.h" || fail "the newline's name in the comment"
grep -q '^#define NL_line_break_ 0$' "$work/nl/nl.h" || fail "the newline's name's macro"
$cxx -std=c++11 -Wall -Werror -fsyntax-only -x c++ "$work/nl/nl.h" || fail "a header with a newline in a name"

# glowc-run: inputs by the model's names or Glow's (the file names are the model's).
"$py" "$here/make-model.py" "$work/short.onnx" --short || exit 1
"$mc" -model="$work/short.onnx" -emit-bundle="$work/run" -network-name=net -bundle-api=dynamic || exit 1
"$py" - "$work" <<'PY' || exit 1
import sys
import numpy as np
for k in range(7):
    v = (np.arange(4, dtype=np.float32) + 1 + 10 * k).reshape(1, 4)
    np.save("%s/in%d.npy" % (sys.argv[1], k), v / 100 if k == 0 else v)
PY
i=("-input=gpu_0_data=$work/in0.npy" "-input=a.b=$work/in1.npy" "-input=a_b=$work/in2.npy" "-input=a_b__2=$work/in3.npy"
   "-input=q__1=$work/in4.npy" "-input=q__2=$work/in5.npy" "-input=A7up=$work/in6.npy")
mkdir "$work/out"
if out=$("$run" -bundle="$work/run/net.o" "${i[@]}" -output-dir="$work/out" 2>&1); then
  "$py" - "$work/out" <<'PY' || fail "glowc-run's outputs"
import sys
import numpy as np
out = sys.argv[1]
rows = np.load(out + "/a-b.npy")
want = np.arange(4, dtype=np.float32) + 1 + 10 * np.arange(1, 7, dtype=np.float32).reshape(6, 1)
assert (rows == want).all(), rows
assert (np.load(out + "/7up.npy") == want[5]).all()
x = (np.arange(4) + 1) / 100
assert np.allclose(np.load(out + "/gpu_0_softmax.npy"), np.exp(x) / np.exp(x).sum(), rtol=1e-5)
print("glowc-run: inputs by either name, outputs right")
PY
else
  fail "glowc-run: $out"
fi
# "a_b" is the model's name of one input and Glow's of another: given alone, it feeds the first.
missing=("${i[@]}")
unset 'missing[1]'
out=$("$run" -bundle="$work/run/net.o" "${missing[@]}" 2>&1)
[ $? -eq 1 ] && grep -q "no values for input 'a.b'" <<<"$out" || fail "glowc-run without a.b: $out"

[ $status -eq 0 ] && echo "symbol names: all checks passed"
exit $status
