"""-model-input's forms end to end: model-compiler with Glow's command lines, the
bundles run by glowc-run, and the outputs checked against numpy in float64.
  * int8q, int16q and int32q: the header shows the placeholder quantized with its scale and
    offset, and the bundle fed quantized bytes computes the float model on
    (q - offset) * scale.
  * a batch of 4 for a model declared [1,2,3]: each row as numpy computes it, and as
    the bundle at the model's own batch (-model-input-name, Glow's bare name) does.
  * refusals: a non-batch dimension, a name the model lacks, a batch the model fixes,
    a quantized form on an int64 input, an offset outside int8; nothing is written.
  * int8q with -load-profile of a profile taken of the float model: within 2% of float64.
    python3 run-model-input.py <model-compiler> <glowc-run> <models dir> <work dir>"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import numpy as np

MC, RUN, MODELS, WORK = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("gen_models", os.path.join(os.path.dirname(__file__), "gen-models.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

failures = 0


def check(ok, what):
    global failures
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    failures += not ok


def compile_bundle(name, model, *options):
    out = os.path.join(WORK, name)
    p = subprocess.run([MC, "-model=" + os.path.join(MODELS, model), "-emit-bundle=" + out, "-network-name=" + name,
                        "-bundle-api=dynamic", *options], capture_output=True, text=True)
    return p, out


def run_bundle(name, out, x):
    np.save(os.path.join(out, "x.npy"), x)
    res = os.path.join(out, "res")
    os.makedirs(res, exist_ok=True)
    subprocess.run([RUN, "-bundle=" + os.path.join(out, name + ".o"), "-input=x=" + os.path.join(out, "x.npy"),
                    "-output-dir=" + res], check=True, capture_output=True)
    return np.load(os.path.join(res, "y.npy"))


def reference(x):  # flat.onnx in float64: relu(flatten(x) W + b)
    return np.maximum(x.reshape(x.shape[0], -1).astype(np.float64) @ gen.W.astype(np.float64) + gen.B, 0)


def quantized(form, dtype, scale, offset):
    p, out = compile_bundle("q_" + form, "flat.onnx", "-model-input=x,%s,%s,%d,[1,2,3]" % (form, scale, offset))
    check(p.returncode == 0, "%s compiles: %s" % (form, p.stderr.strip()))
    if p.returncode:
        return
    header = open(os.path.join(out, "q_%s.h" % form)).read()
    want = "input  \"x\" as x: %s[1,2,3]" % np.dtype(dtype).name
    shown = re.search(r'"x" as x: .*quantized: scale ([^,]+), offset (-?\d+)', header)
    check(want in header and shown and np.float32(shown.group(1)) == np.float32(scale)
          and int(shown.group(2)) == offset, "%s: the header shows %s with its scale and offset" % (form, want))
    info = np.iinfo(dtype)
    q = np.array([info.min, -1, 0, offset, 1, info.max], dtype=dtype).reshape(1, 2, 3)
    y = run_bundle("q_" + form, out, q)
    want_y = reference((q.astype(np.float64) - offset) * scale)
    check(y.shape == (1, 4) and np.allclose(y, want_y, rtol=1e-5, atol=1e-5),
          "%s: the bundle on quantized bytes computes the model on (q - offset) * scale: %s, want %s"
          % (form, y.tolist(), want_y.tolist()))


def batch():
    p, out = compile_bundle("b4", "flat.onnx", "-model-input=x,float,[4,2,3]")
    check(p.returncode == 0, "batch 4 compiles: %s" % p.stderr.strip())
    p1, out1 = compile_bundle("b1", "flat.onnx", "-model-input-name=x")
    check(p1.returncode == 0, "the bare name compiles: %s" % p1.stderr.strip())
    if p.returncode or p1.returncode:
        return
    x = (np.random.default_rng(7).standard_normal((4, 2, 3)) * 2).astype(np.float32)
    y = run_bundle("b4", out, x)
    check(y.shape == (4, 4) and np.allclose(y, reference(x), rtol=1e-5, atol=1e-5),
          "batch 4: every row as numpy computes it")
    rows = np.concatenate([run_bundle("b1", out1, x[r:r + 1]) for r in range(4)])
    check(np.allclose(y, rows, rtol=1e-6, atol=1e-6), "batch 4: every row as the batch-1 bundle computes it")


def quantized_with_profile():
    """int8q with -load-profile, the profile taken of the float model (as image-classifier or
    model-profiler make it): the input keeps its own scale and offset in the int8 graph."""
    scale, offset = 0.25, 3
    rng = np.random.default_rng(7)
    calib = os.path.join(WORK, "calib")
    os.makedirs(calib, exist_ok=True)
    for i in range(8):
        q = rng.integers(-128, 128, size=(1, 2, 3))
        ((q - offset) * scale).astype(np.float32).tofile(os.path.join(calib, "%02d.bin" % i))
    profile = os.path.join(WORK, "float.yml")
    prof = os.path.join(os.path.dirname(MC), "model-profiler")
    subprocess.run([prof, "-model=" + os.path.join(MODELS, "flat.onnx"), "-input-dataset=x,rawbin," + calib,
                    "-dump-profile=" + profile], check=True, capture_output=True)
    p, out = compile_bundle("q_profiled", "flat.onnx", "-model-input=x,int8q,%s,%d,[1,2,3]" % (scale, offset),
                            "-load-profile=" + profile)
    check(p.returncode == 0 and "stale" not in p.stderr,
          "int8q with a profile of the float model compiles, no stale-profile warning: %s" % p.stderr.strip())
    if p.returncode:
        return
    q = rng.integers(-128, 128, size=(1, 2, 3)).astype(np.int8)
    y = run_bundle("q_profiled", out, q)
    want = reference((q.astype(np.float64) - offset) * scale)
    err = np.abs(y - want).max() / max(np.abs(want).max(), 1e-9)
    check(err < 0.02, "int8q + -load-profile: outputs within 2%% of float64 on the dequantized input (%.4f)" % err)


def refused(model, option, *needles):
    p, out = compile_bundle("bad", model, option)
    written = os.path.isdir(out) and os.listdir(out)
    check(p.returncode != 0 and all(n in p.stderr for n in needles) and not written,
          "%s %s is refused (%s), nothing written: %s" % (model, option, ", ".join(needles), p.stderr.strip()))
    shutil.rmtree(out, ignore_errors=True)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
quantized("int8q", np.int8, 0.046875, -3)
quantized("int16q", np.int16, 0.0009765625, 100)
quantized("int32q", np.int32, 1.52587890625e-05, -5)
batch()
quantized_with_profile()
refused("flat.onnx", "-model-input=x,float,[1,2,4]", "float[1,2,4]", "only dimension 0")
refused("flat.onnx", "-model-input=nope,float,[1,2,3]", "'nope'", "inputs are: 'x'")
refused("flat.onnx", "-model-input-name=nope", "'nope'", "inputs are: 'x'")
refused("fixed.onnx", "-model-input=x,float,[4,3]", "flat (Reshape): error: does not take batch 4", "fixes batch 1")
refused("index.onnx", "-model-input=i,int8q,0.5,0,[2]", "the model's input is int64")
refused("flat.onnx", "-model-input=x,int8q,0.5,200,[1,2,3]", "offset 200 is outside int8's range")
print("FAILED: %d" % failures if failures else "all passed")
sys.exit(1 if failures else 0)
