#!/usr/bin/python3
"""Glow's quantization options (issue 24) on a small ResNet-shaped model (gen-resnet-like.py).

    glow-options.py <case> <model-compiler> <model-profiler> <glowc-run> <work dir>

Every case profiles and compiles what it needs in <work dir>/<case> (batch 8: the model's batch
dimension overridden with -model-input, so that one run of a bundle takes the 8 test images).
The oracles are written from what each option means, not from glowc's code:
  bins           -num-histogram-bins=N writes N counts in every histogram (model-profiler and
                 model-compiler -dump-profile; 2000 without it)
  few-bins       10- and 4-bin profiles load and compile, with and without KL calibration; KL
                 leaves their ranges as profiled (Glow's rule: fewer bins than int8's 255 steps),
                 so the bundle is the one without KL, with a warning; a 2000-bin profile is clipped
  constants      -calibrate-constants needs -quantization-calibration=KL; with it weight scales
                 shrink (the outlier weight is clipped), never grow; the clipped outlier costs
                 accuracy (cosine >= 0.8 only)
  rowwise        -enable-rowwise gives the Gemm one weight scale per output row, max|row| / 127
  bias           -quantization-precision-bias=Int32/Int16/Int8: the Gemm's int32 bias, read back,
                 is within half a step of the float bias, then within half an int16 grid step of
                 its range, then half an int8 one, each further off than the one before
  assert         -assert-all-nodes-quantized fails naming each node left in float (a Sigmoid, and
                 the pool after it), writes nothing; Glow's resnet50 options pass
  keep-kinds     Glow's node kinds keep those nodes in float
  relu           every -quantization-schema keeps a Conv's Relu (symmetric ranges hold negatives)
Bundles that compile are run on 8 random images (glowc-run): the cosine similarity of their logits
(less the Gemm's bias) to the float bundle's must be >= 0.99.
"""
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
import yaml
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPE = [8, 3, 16, 16]
MODEL_INPUT = "-model-input=gpu_0/data,float,[%s]" % ",".join(map(str, SHAPE))


class Env:
    def __init__(self, case, mc, mp, run, work):
        self.case, self.mc, self.mp, self.run = case, mc, mp, run
        self.dir = os.path.join(work, case)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.failures = 0

    def path(self, *names):
        return os.path.join(self.dir, *names)

    def check(self, ok, what):
        print("%s: %s" % ("ok" if ok else "FAILED", what))
        self.failures += not ok

    def tool(self, exe, *args, fail=False):
        r = subprocess.run([exe, *args], capture_output=True, text=True)
        if (r.returncode != 0) != fail:
            print(" ".join([exe, *args]))
            print(r.stdout + r.stderr)
            sys.exit("%s %s (exit %d)" % (os.path.basename(exe), "succeeded" if fail else "failed", r.returncode))
        return r.stdout + r.stderr

    def model(self, variant=""):
        out = self.path("model%s.onnx" % ("-" + variant if variant else ""))
        if not os.path.exists(out):
            subprocess.run([sys.executable, os.path.join(HERE, "gen-resnet-like.py"), out] + ([variant] if variant
                                                                                                 else []), check=True)
        return out

    def data(self):
        """4 calibration files of 8 images and one test file (standard normal, fixed seeds)."""
        cal = self.path("calibration")
        if not os.path.isdir(cal):
            os.makedirs(cal)
            rng = np.random.default_rng(0)
            for i in range(4):
                rng.standard_normal(SHAPE).astype("<f4").tofile(os.path.join(cal, "%d.bin" % i))
            np.save(self.path("test.npy"), np.random.default_rng(1).standard_normal(SHAPE).astype(np.float32))
        return cal

    def profile(self, name, *options, model=None):
        out = self.path(name + ".yml")
        self.tool(self.mp, "-model=" + (model or self.model()), MODEL_INPUT,
                  "-input-dataset=gpu_0/data,rawbin," + self.data(), "-dump-profile=" + out, *options)
        return out

    def compile(self, name, *options, model=None, fail=False):
        out = self.path(name)
        os.makedirs(out, exist_ok=True)
        log = self.tool(self.mc, "-model=" + (model or self.model()), MODEL_INPUT, "-emit-bundle=" + out,
                        "-network-name=net", "-bundle-api=dynamic", "-bundle-api-verbose", *options, fail=fail)
        return out, log

    def run_bundle(self, bundle):
        """gpu_0/pred for the 8 test images."""
        out = os.path.join(bundle, "outputs")
        os.makedirs(out, exist_ok=True)
        self.tool(self.run, "-bundle=" + os.path.join(bundle, "net.o"), "-input=gpu_0/data=" + self.path("test.npy"),
                  "-output-dir=" + out)
        return np.load(os.path.join(out, "gpu_0_pred.npy")).reshape(SHAPE[0], -1)

    def logits(self, bundle):
        """The logits of the 8 test images less the Gemm's bias (whose wide range would hide the rest)."""
        return self.run_bundle(bundle) - initializer(self, "fc_b")

    def cosine(self, bundle, what, floor=0.99):
        if not hasattr(self, "reference"):
            self.reference = self.logits(self.compile("float")[0])
        y = self.logits(bundle)
        cos = min(float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b))) for a, b in zip(self.reference, y))
        self.check(cos >= floor, "%s: the logits' cosine similarity to the float bundle's %.5f (>= %g)"
                   % (what, cos, floor))


def constants(bundle):
    """name -> array of each constant weight, from the header's -bundle-api-verbose list."""
    header = open(os.path.join(bundle, "net.h")).read()
    blob = open(os.path.join(bundle, "net.weights.bin"), "rb").read()
    types = {"float": np.float32, "int8": np.int8, "int16": np.int16, "int32": np.int32}
    found = {}
    for name, t, dims, off, size in re.findall(r'//   "([^"]+)": (\w+)\[([0-9,]*)\], offset (\d+), (\d+) bytes',
                                               header):
        shape = [int(d) for d in dims.split(",")] if dims else []
        found[name] = np.frombuffer(blob, types[t], int(size) // np.dtype(types[t]).itemsize,
                                    int(off)).reshape(shape)
    return found


def initializer(env, name):
    for t in onnx.load(env.model()).graph.initializer:
        if t.name == name:
            return numpy_helper.to_array(t)
    raise KeyError(name)


def histogram_lengths(path):
    docs = list(yaml.safe_load_all(open(path)))
    return [len(e["Histogram"]) for e in docs[-1]]


def case_bins(env):
    for n in (10, 4):
        lengths = histogram_lengths(env.profile("p%d" % n, "-num-histogram-bins=%d" % n))
        env.check(lengths and set(lengths) == {n}, "model-profiler -num-histogram-bins=%d: %d histograms of %s bins"
                  % (n, len(lengths), sorted(set(lengths))))
    lengths = histogram_lengths(env.profile("p-default"))
    env.check(set(lengths) == {2000}, "model-profiler without the option: %s bins" % sorted(set(lengths)))
    out = env.path("mc10.yml")
    env.tool(env.mc, "-model=" + env.model(), MODEL_INPUT, "-input-dataset=gpu_0/data,rawbin," + env.data(),
             "-dump-profile=" + out, "-num-histogram-bins=10")
    lengths = histogram_lengths(out)
    env.check(set(lengths) == {10}, "model-compiler -dump-profile -num-histogram-bins=10: %s bins"
              % sorted(set(lengths)))


def weights(bundle):
    return open(os.path.join(bundle, "net.weights.bin"), "rb").read()


def case_few_bins(env):
    for n in (10, 4):
        prof = env.profile("p%d" % n, "-num-histogram-bins=%d" % n)
        plain, _ = env.compile("b%d" % n, "-load-profile=" + prof)
        kl, log = env.compile("b%d-kl" % n, "-load-profile=" + prof, "-quantization-calibration=KL")
        env.check(weights(plain) == weights(kl), "%d bins: KL leaves the ranges as profiled (the same weights)" % n)
        env.check("fewer bins (as few as %d)" % n in log, "%d bins: KL says why it clipped nothing" % n)
        env.cosine(kl, "%d bins with KL" % n)
    prof = env.profile("p2000")
    plain, _ = env.compile("b2000", "-load-profile=" + prof)
    kl, _ = env.compile("b2000-kl", "-load-profile=" + prof, "-quantization-calibration=KL")
    env.check(weights(plain) != weights(kl), "2000 bins: KL changes the ranges")


def weight_scales(bundle):
    return {k: v for k, v in constants(bundle).items() if re.fullmatch(r"\w+_w\d?(\.bnfolded)?\.scale", k)}


def case_constants(env):
    prof = env.profile("p")
    out, log = env.compile("refused", "-load-profile=" + prof, "-calibrate-constants", fail=True)
    env.check("-calibrate-constants" in log and "KL" in log and not os.listdir(out),
              "-calibrate-constants without KL is refused, naming both, nothing written")
    kl, _ = env.compile("kl", "-load-profile=" + prof, "-quantization-calibration=KL")
    cc, _ = env.compile("kl-constants", "-load-profile=" + prof, "-quantization-calibration=KL", "-calibrate-constants")
    before, after = weight_scales(kl), weight_scales(cc)
    env.check(len(before) == 4 and before.keys() == after.keys(), "4 weight scales: %s" % sorted(before))
    env.check(all(after[k] <= before[k] for k in before), "no weight scale grows")
    env.check(after["res_w1.bnfolded.scale"] < 0.5 * before["res_w1.bnfolded.scale"],
              "the outlier weight is clipped: res_w1's scale %.3g -> %.3g" % (before["res_w1.bnfolded.scale"],
                                                                            after["res_w1.bnfolded.scale"]))
    # Clipping the outlier (its product now saturates at a tenth of its value) costs accuracy;
    # without -calibrate-constants the same profile keeps 0.99.
    env.cosine(kl, "KL")
    env.cosine(cc, "-calibrate-constants (the outlier clipped)", floor=0.8)


def case_rowwise(env):
    prof = env.profile("p")
    w = initializer(env, "fc_w")  # [10 outputs, 8 inputs] (transB)
    plain, _ = env.compile("plain", "-load-profile=" + prof)
    rows, log = env.compile("rowwise", "-load-profile=" + prof, "-enable-rowwise", "-dump-after=quantize")
    s0, s1 = constants(plain)["fc_w.scale"], constants(rows)["fc_w.scale"]
    env.check(s0.shape == () and np.isclose(s0, np.abs(w).max() / 127, rtol=1e-6),
              "without -enable-rowwise: one scale, max|W| / 127 = %.6g" % s0)
    want = np.abs(w).max(axis=1) / 127
    env.check(s1.shape == (10,) and np.allclose(s1, want, rtol=1e-6),
              "with it: a scale per output row, max|W[row]| / 127: %s" % np.array2string(s1, precision=4))
    env.check(re.search(r"QLinearMatMul \"pred\"\(.*fc_w\.scale float\[10\]", log) is not None,
              "the Gemm is a QLinearMatMul with 10 scales")
    env.cosine(rows, "-enable-rowwise")


def case_bias(env):
    prof = env.profile("p")
    b = initializer(env, "fc_b").astype(np.float64)
    lo, hi = min(b.min(), 0.0), max(b.max(), 0.0)
    errors = {}
    for precision, steps in (("Int32", None), ("Int16", 65535), ("Int8", 255)):
        bundle, _ = env.compile(precision, "-load-profile=" + prof, "-quantization-precision-bias=" + precision)
        c = constants(bundle)
        step = float(c["gpu_0/pool5.scale"]) * float(c["fc_w.scale"])  # the accumulator's scale
        err = np.abs(c["fc_b.quantized"].astype(np.float64) * step - b).max()
        bound = 0.5 * step + (0.5 * (hi - lo) / steps if steps else 0.0) + 1e-6 * np.abs(b).max()
        env.check(err <= bound, "%s bias: off the float bias by %.3g at most (bound %.3g)" % (precision, err, bound))
        errors[precision] = (err, weights(bundle))
        env.cosine(bundle, "%s bias" % precision)
    env.check(errors["Int32"][0] < errors["Int16"][0] < errors["Int8"][0],
              "each narrower bias is further off: %s" % ", ".join("%s %.3g" % (k, v[0]) for k, v in errors.items()))
    env.check(len({v[1] for v in errors.values()}) == 3, "three different sets of weights")


def case_assert(env):
    sig = env.model("sigmoid")
    prof = env.profile("ps", model=sig)
    out, log = env.compile("sigmoid", "-load-profile=" + prof, "-assert-all-nodes-quantized",
                           "-keep-original-precision-for-nodes=SoftMax", model=sig, fail=True)
    env.check("'gate' (Sigmoid)" in log and "'pool5' (GlobalAveragePool)" in log and "'softmax'" not in log,
              "the Sigmoid and the pool after it are named, the kept Softmax is not")
    env.check(not os.listdir(out), "nothing written")
    env.compile("sigmoid-kept", "-load-profile=" + prof, "-assert-all-nodes-quantized",
                "-keep-original-precision-for-nodes=SoftMax,Sigmoid,GlobalAveragePool", model=sig)
    env.check(True, "with those kept too it compiles")
    prof = env.profile("p")
    out, log = env.compile("softmax", "-load-profile=" + prof, "-assert-all-nodes-quantized", fail=True)
    env.check("'softmax' (Softmax)" in log, "without -keep-original-precision-for-nodes the Softmax is named")
    # Glow's resnet50 example: -load-profile=profile.yml -assert-all-nodes-quantized
    # -keep-original-precision-for-nodes=SoftMax, with its -backend=CPU.
    bundle, _ = env.compile("resnet50-options", "-backend=CPU", "-load-profile=" + prof, "-assert-all-nodes-quantized",
                            "-keep-original-precision-for-nodes=SoftMax")
    env.check(True, "Glow's resnet50 quantization options compile")
    env.cosine(bundle, "Glow's resnet50 options")


def case_keep_kinds(env):
    prof = env.profile("p")
    for kind, op in (("FullyConnected", "Gemm"), ("Convolution", "Conv"), ("SoftMax", "Softmax")):
        _, log = env.compile(kind, "-load-profile=" + prof, "-keep-original-precision-for-nodes=" + kind,
                             "-dump-after=quantize")
        env.check(re.search(r" float\[[0-9,]*\] = %s " % op, log) is not None, "%s keeps %s in float" % (kind, op))


def case_relu(env):
    """Conv -> Relu, the Relu's output the model's: each -quantization-schema keeps it >= 0 (the
    symmetric schemas' ranges hold negative values, which a Relu folded into the Conv's int8
    saturation let through) and near the float one."""
    from onnx import TensorProto, helper
    rng = np.random.default_rng(3)
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["gpu_0/data", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
         helper.make_node("Relu", ["c"], ["gpu_0/pred"], name="relu")], "conv-relu",
        [helper.make_tensor_value_info("gpu_0/data", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("gpu_0/pred", TensorProto.FLOAT, [1, 4, 16, 16])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    path = env.path("conv-relu.onnx")
    onnx.save(model, path)
    prof = env.profile("p", model=path)
    float_out = env.run_bundle(env.compile("float", model=path)[0])
    for schema in ("asymmetric", "symmetric", "symmetric_with_uint8", "symmetric_with_power2_scale"):
        y = env.run_bundle(env.compile(schema, "-load-profile=" + prof, "-quantization-schema=" + schema,
                                       model=path)[0])
        err = np.abs(y - float_out).max()
        env.check(y.min() >= 0 and err <= 0.05 * float_out.max(),
                  "%s: min %.3g (>= 0), off the float output by %.3g at most (<= 5%% of its max %.3g)"
                  % (schema, y.min(), err, float_out.max()))


CASES = {"bins": case_bins, "few-bins": case_few_bins, "constants": case_constants, "rowwise": case_rowwise,
         "bias": case_bias, "assert": case_assert, "keep-kinds": case_keep_kinds, "relu": case_relu}


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in CASES:
        sys.exit(__doc__)
    env = Env(*sys.argv[1:])
    CASES[env.case](env)
    if env.failures:
        sys.exit("%d check(s) failed" % env.failures)


if __name__ == "__main__":
    main()
