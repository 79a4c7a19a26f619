#!/usr/bin/python3
"""Bad Caffe2 input to model-compiler: each case writes a broken Caffe2 model (NetDefs made with
onnx2caffe2.py's message classes), compiles it, and checks that the compiler exits non-zero,
says what is wrong (stderr matched against a pattern naming the file, op and what to do) and
leaves no bundle file behind.

    /usr/bin/python3 tests/caffe2/badinput.py <model-compiler> <case>
    /usr/bin/python3 tests/caffe2/badinput.py --fuzz-seed tests/fuzz/caffe2.seed

--fuzz-seed writes the seed of tests/fuzz/fuzz-import-caffe2.c: 4 bytes of length, then a
predict_net of most importer paths, then its init_net (input data: float[1,4,8,8]).
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx2caffe2 import NetDef, op  # noqa: E402

W = [0.5] * 16  # a 4x1x2x2 Conv weight


def net(ops, inputs=("data",), outputs=("out",), weights=()):
    n = NetDef(name="bad")
    n.op.extend(ops)
    n.external_input.extend(list(inputs) + list(weights))
    n.external_output.extend(outputs)
    return n


def init(**fills):
    n = NetDef(name="init")
    n.op.extend(op("GivenTensorFill", [], [k], shape=v[0], values=v[1]) for k, v in fills.items())
    return n


CONV_INIT = init(w=([4, 1, 2, 2], W))
INPUT = ["-model-input=data,float,[1,1,4,4]"]


def case(name, work):
    """(files to write in the model folder, extra arguments, model path, stderr pattern)."""
    model = os.path.join(work, "net")
    good = net([op("Conv", ["data", "w"], ["out"], kernel=2)], weights=["w"])
    if name == "no-init-net":
        return {"predict_net.pb": good}, INPUT, model, r"net: error: a Caffe2 model folder holds predict_net.pb and " \
            r"init_net.pb, and this one has no init_net.pb"
    if name == "truncated-predict-net":
        data = good.SerializeToString()
        return {"predict_net.pb": data[:10], "init_net.pb": CONV_INIT}, INPUT, model, \
            r"predict_net.pb: error: not a valid Caffe2 NetDef \(truncated"
    if name == "two-unsupported-ops":
        bad = net([op("FrobnicateA", ["data"], ["a"], name="a1"), op("Relu", ["a"], ["b"]),
                   op("FrobnicateB", ["b"], ["c"], name="b1"), op("FrobnicateA", ["c"], ["out"], name="a2")])
        return {"predict_net.pb": bad, "init_net.pb": init()}, INPUT, model, \
            r"predict_net.pb: error: 2 unsupported Caffe2 op types: FrobnicateA \(2 ops: a1, a2\); " \
            r"FrobnicateB \(1 op: b1\)\. glowc imports Conv, "
    if name == "missing-model-input":
        return {"predict_net.pb": good, "init_net.pb": CONV_INIT}, [], model, \
            r"predict_net.pb: error: input 'data' has no shape: Caffe2 nets do not record the shapes of their " \
            r"inputs; pass -model-input=data,float,\[d0,d1,...\]"
    if name == "nhwc":
        bad = net([op("Conv", ["data", "w"], ["out"], name="conv1", kernel=2, order="NHWC")], weights=["w"])
        return {"predict_net.pb": bad, "init_net.pb": CONV_INIT}, INPUT, model, \
            r"predict_net.pb:conv1 \(Conv\): error: order NHWC is not supported: glowc imports NCHW nets only"
    if name == "bad-legacy-pad":
        bad = net([op("MaxPool", ["data"], ["out"], name="pool1", kernel=2, legacy_pad=7)])
        return {"predict_net.pb": bad, "init_net.pb": init()}, INPUT, model, \
            r"predict_net.pb:pool1 \(MaxPool\): error: legacy_pad 7 is not one of 0 \(NOTSET\), 1 \(VALID\)"
    if name == "dropout-training":
        bad = net([op("Dropout", ["data"], ["out", "mask"], name="drop", is_test=0)])
        return {"predict_net.pb": bad, "init_net.pb": init()}, INPUT, model, \
            r"predict_net.pb:drop \(Dropout\): error: is_test=0 drops values at random \(training\); an inference " \
            r"net sets is_test=1"
    if name == "init-net-not-fill":
        bad_init = init(w=([4, 1, 2, 2], W))
        bad_init.op.append(op("Relu", ["w"], ["w2"], name="relu_in_init"))
        return {"predict_net.pb": good, "init_net.pb": bad_init}, INPUT, model, \
            r"init_net.pb: error: 1 op of init_net is not a fill glowc reads: relu_in_init \(Relu\)"
    if name == "fill-wrong-count":
        return {"predict_net.pb": good, "init_net.pb": init(w=([4, 1, 2, 2], W[:15]))}, INPUT, model, \
            r"init_net.pb:w \(GivenTensorFill\): error: 'values' has 15 floats, but its shape holds 16 elements"
    if name == "single-file":
        return {"predict_net.pb": good, "init_net.pb": CONV_INIT}, INPUT, os.path.join(model, "predict_net.pb"), \
            r"predict_net.pb: error: a Caffe2 net is two files: pass the folder holding predict_net.pb and " \
            r"init_net.pb \(-model=<dir>\), or both"
    raise SystemExit("unknown case " + name)


def fuzz_seed(path):
    rng = np.random.default_rng(0)
    f = lambda *shape: ([*shape], [float(x) for x in rng.standard_normal(shape).reshape(-1)])
    weights = dict(w=f(8, 4, 3, 3), b=f(8), s=f(8), o=f(8), m=f(8), v=([8], [1.0] * 8), bias=f(16),
                   wfc=f(10, 256), bfc=f(10))
    ops = [op("Conv", ["data", "w", "b"], ["c1"], kernel=3, pad=1, order="NCHW"),
           op("SpatialBN", ["c1", "s", "o", "m", "v"], ["c1"], is_test=1, epsilon=1e-5),
           op("Relu", ["c1"], ["c1"]),
           op("LRN", ["c1"], ["l", "l_scale"], size=3, alpha=0.1, beta=0.75),
           op("ChannelShuffle", ["l"], ["cs"], group=2),
           op("MaxPool", ["cs"], ["p"], kernel=2, stride=2, legacy_pad=3),
           op("Concat", ["p", "p"], ["cat", "cat_split"], axis=1),
           op("Add", ["cat", "bias"], ["a"], broadcast=1, axis=1),
           op("Reshape", ["a"], ["r", "r_old"], shape=[1, -1]),
           op("FC", ["r", "wfc", "bfc"], ["fc"]),
           op("Dropout", ["fc"], ["fc", "mask"], is_test=1),
           op("Softmax", ["fc"], ["out"]),
           op("Int8Dequantize", ["q"], ["dq"])]
    init_net = init(**weights)
    init_net.op.append(op("Int8GivenTensorFill", [], ["q"], shape=[4], values=b"\x00\x10\x80\xff", Y_scale=0.5,
                          Y_zero_point=128))
    predict = net(ops, weights=sorted(weights) + ["q"]).SerializeToString()
    with open(path, "wb") as out:
        out.write(len(predict).to_bytes(4, "little"))
        out.write(predict + init_net.SerializeToString())


def main():
    if sys.argv[1] == "--fuzz-seed":
        return fuzz_seed(sys.argv[2])
    mc, name = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as work:
        files, args, model, want = case(name, work)
        os.makedirs(os.path.join(work, "net"))
        for f, data in files.items():
            with open(os.path.join(work, "net", f), "wb") as out:
                out.write(data if isinstance(data, bytes) else data.SerializeToString())
        out_dir = os.path.join(work, "out")
        os.makedirs(out_dir)
        p = subprocess.run([mc, "-model=" + model, "-emit-bundle=" + out_dir] + args, stderr=subprocess.PIPE,
                           text=True)
        status = 0
        if p.returncode == 0 or p.returncode > 125 or p.returncode < 0:
            print("FAIL: exit status %d, expected an error" % p.returncode)
            status = 1
        if not re.search(want, p.stderr):
            print("FAIL: stderr does not match /%s/" % want)
            status = 1
        if os.listdir(out_dir):
            print("FAIL: files left behind: %s" % " ".join(os.listdir(out_dir)))
            status = 1
        print("--- stderr:\n" + p.stderr)
        return status


if __name__ == "__main__":
    sys.exit(main())
