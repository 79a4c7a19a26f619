#!/usr/bin/python3
"""Generates the whole-model test cases: ONNX models, a random input, ONNX Runtime's output.

    /usr/bin/python3 tests/models/gen-models.py <out_dir> [names...]

For each named model (all when none are named) writes
    <out_dir>/<name>/model.onnx
    <out_dir>/<name>/test_data_set_0/input_0.pb    random input, fixed seed
    <out_dir>/<name>/test_data_set_0/output_0.pb   ONNX Runtime's output (the reference)
in the layout of the ONNX backend tests. Models have random weights (torch.manual_seed(0);
digits_cnn has its trained ones), batch 1, input "input", output "output":
    resnet18, mobilenet_v2, squeezenet1_1   torchvision, 1x3x224x224, opset 13, initial weights
    <classifier>, <classifier>_op<N>        any torchvision classifier (torchvision-table.py runs
                                            them all), 1x3x224x224 (inception_v3 299x299), opset 13
                                            or N, weights made lively (see lively())
    mlp                                     64-128-64-10 Linear+Relu, Softmax, opset 13
    digits_cnn                              trained and exported by examples/digits/train-digits.py
                                            (the same bytes as digits.onnx; BatchNorm kept), opset 13
    transformer                             2-layer TransformerEncoder, d_model 128, 1x16x128, opset 14
    lstm                                    2-layer bidirectional nn.LSTM, batch_first, 2x12x20, hidden 40,
                                            outputs output, h, c; opset 13
    gru, rnn                                bidirectional nn.GRU / 2-layer nn.RNN (tanh), 12x2x20, hidden
                                            40, outputs output, h; opset 13
    <name>_b<N>                             a torch model above at batch N (its first input dim),
                                            e.g. resnet18_b8 (bench/cuda runs batch 8)
    rnn_attrs                               onnx.helper: LSTM, GRU and RNN attributes torch does not
                                            export (reverse, sequence_lens, peepholes, clip,
                                            activations, input_forget), 6x3x5, eight outputs; opset 14
Two runs write the same bytes. All ten take about 11 s and 66 MB (resnet18 alone 47 MB).

Needs /usr/bin/python3 with torch, torchvision, onnx and sklearn (Debian packages), `node` on
PATH and onnxruntime-node (both from scripts/install-deps.sh; GLOWC_ORT_DIR passes through to
tests/reference/ort-run.js). Generated models are never committed: the build runs this with an
out_dir in the build tree, one model per command so they build in parallel, e.g.
    add_custom_command(OUTPUT ${dir}/mlp/model.onnx ${dir}/mlp/test_data_set_0/output_0.pb
      COMMAND /usr/bin/python3 ${src}/tests/models/gen-models.py ${dir} mlp
      DEPENDS ${src}/tests/models/gen-models.py ${src}/tests/reference/ort-run.js VERBATIM)
(digits_cnn also depends on examples/digits/train-digits.py.)
"""
import importlib.util
import io
import os
import re
import sys
import time

import numpy as np
import torch
import torchvision
from onnx import TensorProto, helper, numpy_helper
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))
import onnxref  # noqa: E402

SEED = 0
BATCH = None  # <name>_b<N>: the first dim of the exported input


def export(model, shape, opset, outputs=("output",)):
    """Returns the ONNX bytes of a torch model and a random input for it."""
    model.eval()
    if BATCH:
        shape = (BATCH,) + tuple(shape[1:])
    buf = io.BytesIO()
    torch.onnx.export(
        model, torch.zeros(shape), buf, opset_version=opset, do_constant_folding=True,
        input_names=["input"], output_names=list(outputs))
    return buf.getvalue(), np.random.default_rng(SEED).standard_normal(shape, dtype=np.float32)


def classifier(name, opset=13, fresh=False):
    """A torchvision 0.14 classifier by its builder name, random weights made lively (fresh:
    torchvision's initial ones), 1x3x224x224 (inception_v3 1x3x299x299)."""
    def make():
        size = 299 if name == "inception_v3" else 224
        model = classifier_model(name)
        return export(model if fresh else lively(model, (1, 3, size, size)), (1, 3, size, size), opset)
    return make


def classifier_model(name):
    # googlenet and inception_v3 warn unless told to initialize weights themselves.
    kwargs = {"init_weights": True} if name in ("googlenet", "inception_v3") else {}
    return torchvision.models.get_model_builder(name)(weights=None, **kwargs)


def lively(model, shape):
    """Random weights whose output depends on the input. A matrix initialized to zeros
    (vit's head) gets random values. Where the output still ignores the input (googlenet's
    small initial weights shrink the activations to nothing over the layers, leaving the last
    bias), BatchNorm statistics become those of a random batch, as after training. Only
    there: in deep residual nets (resnet152) they make float32 rounding grow past 1e-4."""
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() >= 2 and not p.any():
                nn.init.normal_(p, std=p.shape[1] ** -0.5)
        model.eval()
        y = model(torch.randn((2,) + shape[1:]))
        if (y[0] - y[1]).abs().max() > 1e-3 * y.abs().max():
            return model
        for m in model.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                m.reset_running_stats()
                m.momentum = None  # a plain average over the batch
        model.train()
        model(torch.randn((2,) + shape[1:]))
    return model


def classifier_names():
    return torchvision.models.list_models(module=torchvision.models)


def lookup(name):
    """The case generator for a name: one of MODELS, or any torchvision classifier as
    <builder name> (opset 13) or <builder name>_op<N> (opset N)."""
    if name in MODELS:
        return MODELS[name]
    b = re.fullmatch(r"(.+)_b(\d+)", name)
    if b and b[1] != "rnn_attrs" and lookup(b[1]):
        make = lookup(b[1])

        def batched():
            global BATCH
            BATCH = int(b[2])
            try:
                return make()
            finally:
                BATCH = None
        return batched
    m = re.fullmatch(r"(.+?)(?:_op(\d+))?", name)
    if m[1] in classifier_names():
        return classifier(m[1], int(m[2] or 13))
    return None


def mlp():
    model = nn.Sequential(
        nn.Linear(64, 128), nn.ReLU(),
        nn.Linear(128, 64), nn.ReLU(),
        nn.Linear(64, 10), nn.Softmax(dim=1))
    return export(model, (1, 64), 13)


def transformer():
    layer = nn.TransformerEncoderLayer(
        d_model=128, nhead=4, dim_feedforward=256, dropout=0.0, batch_first=True)
    return export(nn.TransformerEncoder(layer, num_layers=2), (1, 16, 128), 14)


class Recurrent(nn.Module):
    """A torch recurrent layer's output and final states: ONNX's Y, Y_h (and Y_c)."""

    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def forward(self, x):
        y, h = self.rnn(x)
        return (y, *h) if isinstance(h, tuple) else (y, h)


def lstm():
    rnn = nn.LSTM(20, 40, num_layers=2, bidirectional=True, batch_first=True)
    return export(Recurrent(rnn), (2, 12, 20), 13, ("output", "h", "c"))


def gru():
    return export(Recurrent(nn.GRU(20, 40, bidirectional=True)), (12, 2, 20), 13, ("output", "h"))


def rnn():
    """torch has no reverse-only RNN: bidirectional is how its reverse direction is exported."""
    rnn = nn.RNN(20, 40, num_layers=2, nonlinearity="tanh", bidirectional=True)
    return export(Recurrent(rnn), (12, 2, 20), 13, ("output", "h"))


def rnn_attrs():
    """What torch does not export, written with onnx.helper (opset 14): a reverse LSTM with
    peepholes, clip, sequence_lens and initial states; a bidirectional GRU with
    linear_before_reset=0, sequence_lens and non-default activations; a bidirectional RNN with a
    LeakyRelu; an LSTM with input_forget=1. (ONNX Runtime refuses layout=1; the node tests
    test_*_batchwise cover it.)"""
    rng = np.random.default_rng(SEED)
    S, N, I, H = 6, 3, 5, 7
    inits = []

    def const(name, shape, dtype=np.float32, values=None):
        v = (rng.standard_normal(shape) * 0.5).astype(dtype) if values is None else np.array(values, dtype)
        inits.append(numpy_helper.from_array(v, name))
        return name

    lens = const("lens", (N,), np.int32, [6, 4, 1])
    nodes = [
        helper.make_node(
            "LSTM", ["input", const("lw", (1, 4 * H, I)), const("lr", (1, 4 * H, H)), const("lb", (1, 8 * H)),
                     lens, const("lh", (1, N, H)), const("lc", (1, N, H)), const("lp", (1, 3 * H))],
            ["lstm_y", "lstm_h", "lstm_c"], direction="reverse", hidden_size=H, clip=1.5),
        helper.make_node(
            "GRU", ["input", const("gw", (2, 3 * H, I)), const("gr", (2, 3 * H, H)), const("gb", (2, 6 * H)),
                    lens, const("gh", (2, N, H))],
            ["gru_y", "gru_h"], direction="bidirectional", hidden_size=H,
            activations=["Sigmoid", "Tanh", "HardSigmoid", "Softsign"], activation_alpha=[0.3],
            activation_beta=[0.4]),
        helper.make_node(
            "RNN", ["input", const("rw", (2, H, I)), const("rr", (2, H, H)), const("rb", (2, 2 * H))],
            ["rnn_y", "rnn_h"], direction="bidirectional", hidden_size=H,
            activations=["LeakyRelu", "Tanh"], activation_alpha=[0.2]),
        helper.make_node(
            "LSTM", ["input", const("fw", (1, 4 * H, I)), const("fr", (1, 4 * H, H))], ["", "", "forget_c"],
            hidden_size=H, input_forget=1),
    ]
    outs = {"lstm_y": [S, 1, N, H], "lstm_h": [1, N, H], "lstm_c": [1, N, H], "gru_y": [S, 2, N, H],
            "gru_h": [2, N, H], "rnn_y": [S, 2, N, H], "rnn_h": [2, N, H], "forget_c": [1, N, H]}
    graph = helper.make_graph(
        nodes, "rnn_attrs", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [S, N, I])],
        [helper.make_tensor_value_info(k, TensorProto.FLOAT, v) for k, v in outs.items()], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    return model.SerializeToString(), rng.standard_normal((S, N, I), dtype=np.float32)


def digits_cnn():
    """Trained and exported by examples/digits/train-digits.py (same bytes as digits.onnx)."""
    path = os.path.join(ROOT, "examples", "digits", "train-digits.py")
    spec = importlib.util.spec_from_file_location("train_digits", path)
    digits = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(digits)
    buf = io.BytesIO()
    digits.export(digits.train()[0], buf)
    pixels = np.random.default_rng(SEED).random((1, 1, 8, 8), dtype=np.float32)
    return buf.getvalue(), pixels


def layernorm_mlp():
    """The fuse-layernorm plugin example's model (examples/pass-fuse-layernorm/make-model.py)."""
    with open(os.path.join(ROOT, "examples", "pass-fuse-layernorm", "layernorm-mlp.onnx"), "rb") as f:
        onnx_bytes = f.read()
    return onnx_bytes, np.random.default_rng(SEED).standard_normal((2, 16), dtype=np.float32)


def winograd_convs():
    """3x3 convs that passes/winograd.c runs by Winograd (planes of 14 x 14 and more), in the
    shapes its kernel treats apart: output planes that are no multiple of the 4x4 tiles (and
    rows of tiles wider than the 7 tiles a run of patch columns holds), pads 0, 1 and 2, input
    channels that leave a partial chunk of 16 (3: not Winograd; 24, 40), 16, 32 and 48 output
    channels per panel block (48 and 80: blocks of 16; 32; 64), no bias, two images, and the
    fused epilogues: a residual with ReLU, ReLU6 (Clip) and SiLU (the generic path)."""
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, 24, 3, padding=1)
            self.c2 = nn.Conv2d(24, 48, 3, padding=1, bias=False)
            self.c3 = nn.Conv2d(48, 40, 3, padding=0)
            self.c4 = nn.Conv2d(40, 64, 3, padding=1)
            self.c5 = nn.Conv2d(64, 64, 3, padding=1)
            self.c6 = nn.Conv2d(64, 32, 3, padding=2)
            self.c7 = nn.Conv2d(32, 80, 3, padding=1)

        def forward(self, x):
            x = torch.relu(self.c1(x))
            x = self.c2(x)
            x = torch.relu(self.c3(x))
            y = torch.relu(self.c4(x))
            y = torch.relu(self.c5(y) + y)
            y = torch.nn.functional.relu6(self.c6(y))
            return torch.nn.functional.silu(self.c7(y))

    return export(Net(), (2, 3, 19, 70), 13)


MODELS = {
    # Initial weights: the README's measurements (packed sizes, cosines) are on these bytes.
    "resnet18": classifier("resnet18", fresh=True),
    "mobilenet_v2": classifier("mobilenet_v2", fresh=True),
    "squeezenet1_1": classifier("squeezenet1_1", fresh=True),
    "mlp": mlp,
    "digits_cnn": digits_cnn,
    "transformer": transformer,
    "lstm": lstm,
    "gru": gru,
    "rnn": rnn,
    "rnn_attrs": rnn_attrs,
    "layernorm_mlp": layernorm_mlp,
    "winograd_convs": winograd_convs,
}


def generate(out_dir, name):
    t0 = time.monotonic()
    torch.manual_seed(SEED)
    onnx_bytes, x = lookup(name)()
    case = os.path.join(out_dir, name)
    onnxref.write_case(case, onnx_bytes, [("input", x)])
    t1 = time.monotonic()
    onnxref.run_ort([case])
    t2 = time.monotonic()
    print(f"gen-models: {name}: export {t1 - t0:.1f} s, onnxruntime {t2 - t1:.1f} s, "
          f"{len(onnx_bytes)} bytes")


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(f"usage: gen-models.py <out_dir> [names...]\nmodels: {' '.join(MODELS)}")
    out_dir, names = sys.argv[1], sys.argv[2:] or list(MODELS)
    unknown = [n for n in names if not lookup(n)]
    if unknown:
        sys.exit(f"gen-models: unknown model(s) {' '.join(unknown)}; known: {' '.join(MODELS)} "
                 f"and any torchvision classifier as <name> or <name>_op<opset>")
    torch.set_num_threads(1)
    for name in names:
        generate(out_dir, name)


if __name__ == "__main__":
    main()
