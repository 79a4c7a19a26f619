"""The scale and offset (zero point) of quantized inputs and outputs in a bundle's header
comment and in <net>_tensor_info: make-model.py's model, its input compiled as
-model-input=x,int8q,0.05,3,[1,4], its three outputs quantized by a QuantizeLinear, through
a Reshape, and by a QLinearMatMul (after fold-qdq). print-tensor-info.c, built against the
dynamic bundle's header, prints tensor_info; glowc-run (the runtime library, whose struct
GlowTensorInfo must match the bundle's) runs the bundle on int8 bytes, checked in numpy.
    python3 check-tensor-quant.py <model-compiler> <glowc-run> <cc> <this dir> <work dir>"""
import os
import shutil
import subprocess
import sys

import numpy as np

MC, RUN, CC, HERE, WORK = sys.argv[1:6]
failures = 0


def check(ok, what):
    global failures
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    failures += not ok


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
model = os.path.join(WORK, "quant-io.onnx")
subprocess.run([sys.executable, os.path.join(HERE, "make-model.py"), model], check=True)

# The header comment, both APIs.
want = [
    '//   input  "x" as x: int8[1,4], offset 0, 4 bytes, quantized: scale 0.0500000007, offset 3',
    '//   output "y" as y: int8[1,4], offset 64, 4 bytes, quantized: scale 0.100000001, offset -7',
    '//   output "z" as z: int8[4], offset 128, 4 bytes, quantized: scale 0.100000001, offset -7',
    '//   output "m" as m: uint8[1,2], offset 192, 2 bytes, quantized: scale 0.25, offset 128',
]
for api in ("static", "dynamic"):
    out = os.path.join(WORK, api)
    p = subprocess.run([MC, "-model=" + model, "-emit-bundle=" + out, "-network-name=quant_io",
                        "-bundle-api=" + api, "-model-input=x,int8q,0.05,3,[1,4]"], capture_output=True, text=True)
    check(p.returncode == 0, "%s API compiles %s" % (api, p.stderr.strip()))
    if p.returncode:
        sys.exit(1)
    header = open(os.path.join(out, "quant_io.h")).read().splitlines()
    for line in want:
        check(line in header, "%s header: %s" % (api, line[5:]))

# tensor_info, read by a program built against the header.
dyn = os.path.join(WORK, "dynamic")
exe = os.path.join(WORK, "print-tensor-info")
p = subprocess.run([*CC.split(), "-std=c11", "-Wall", "-Wextra", "-Werror", "-I" + dyn,
                    os.path.join(HERE, "print-tensor-info.c"), os.path.join(dyn, "quant_io.o"), "-lm", "-o", exe],
                   capture_output=True, text=True)
check(p.returncode == 0, "print-tensor-info builds against the header %s" % p.stderr.strip())
if p.returncode == 0:
    got = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.splitlines()
    expected = ["x role 1 dtype 3 rank 2 scale 0.0500000007 offset 3",  # ONNX dtypes: 3 int8, 2 uint8
                "y role 2 dtype 3 rank 2 scale 0.100000001 offset -7",
                "z role 2 dtype 3 rank 1 scale 0.100000001 offset -7",
                "m role 2 dtype 2 rank 2 scale 0.25 offset 128"]
    check(got == expected, "tensor_info: %s" % got)

# The bundle through the runtime library: int8 bytes in, quantized outputs as numpy computes them.
xq = np.array([[3, 63, 83, -20]], np.int8)
np.save(os.path.join(WORK, "x.npy"), xq)
res = os.path.join(WORK, "res")
os.makedirs(res)
p = subprocess.run([RUN, "-bundle=" + os.path.join(dyn, "quant_io.o"), "-input=x=" + os.path.join(WORK, "x.npy"),
                    "-output-dir=" + res], capture_output=True, text=True)
check(p.returncode == 0, "glowc-run runs the bundle %s" % p.stderr.strip())
if p.returncode == 0:
    x = (xq.astype(np.float64) - 3) * np.float32(0.05)
    y = np.clip(np.rint(np.maximum(x, 0) / np.float32(0.1)) - 7, -128, 127).astype(np.int8)
    xd = np.rint(x / np.float32(0.05)) * np.float32(0.05)
    w = np.arange(8).reshape(4, 2) * np.float32(0.02)
    m = np.clip(np.rint(xd @ w / 0.25) + 128, 0, 255).astype(np.uint8)
    for name, ref in (("y", y), ("z", y.reshape(4)), ("m", m)):
        out = np.load(os.path.join(res, name + ".npy"))
        check(out.dtype == ref.dtype and np.array_equal(out, ref), "%s = %s (numpy: %s)" % (name, out, ref))

print("%d failures" % failures)
sys.exit(1 if failures else 0)
