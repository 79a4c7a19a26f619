#!/usr/bin/python3
"""Generates the Caffe2 model test cases: each an ONNX model exported by torch, a random input,
ONNX Runtime's output, and the same net as a Caffe2 model (onnx2caffe2.py).

    /usr/bin/python3 tests/caffe2/gen-caffe2.py <out_dir> [names...]

For each named model (all when none are named) writes, in the layout of tests/models,
    <out_dir>/<name>/model.onnx, test_data_set_0/{input_0,output_0}.pb   the ONNX twin, ORT's output
    <out_dir>/<name>/caffe2/{predict_net,init_net}.pb                     the Caffe2 model
Models (batch 1, input "input", output "output", torch.manual_seed(0), opset 13):
    resnet50        torchvision resnet50, weights made lively (gen-models.py's lively()), its
                    BatchNormalization kept (SpatialBN in the Caffe2 net, as in Caffe2's zoo),
                    1x3x224x224
    squeezenet1_1   torchvision squeezenet1_1, initial weights, 1x3x224x224 (MaxPool with
                    ceil_mode: legacy_pad 3)
    ops             a small net of the other zoo ops, 1x8x16x16: Conv (1x3 kernel, pad_t/l/b/r;
                    dilation), SpatialBN, Relu, LRN, ChannelShuffle, Concat, AveragePool with
                    count_include_pad, Mul and Add of per-channel constants (broadcast, axis 1),
                    MaxPool (ceil), Sum, Dropout, FC, Clip (ReLU6), Softmax; outputs "logits"
                    (before the Softmax, which would flatten errors) and "output"
Needs what tests/models/gen-models.py needs, and protoc-c.
"""
import importlib.util
import io
import os
import sys
import time

import numpy as np
import onnx
import torch
import torchvision
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
spec = importlib.util.spec_from_file_location("gen_models", os.path.join(HERE, "..", "models", "gen-models.py"))
gen_models = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen_models)
import onnx2caffe2  # noqa: E402

SEED = 0


def export(model, shape, outputs=("output",)):
    """ONNX bytes (BatchNormalization kept, as a Caffe2 net has SpatialBN) and a random input."""
    model.eval()
    buf = io.BytesIO()
    torch.onnx.export(model, torch.zeros(shape), buf, opset_version=13, do_constant_folding=True,
                      training=torch.onnx.TrainingMode.PRESERVE, input_names=["input"], output_names=list(outputs))
    return buf.getvalue(), np.random.default_rng(SEED).standard_normal(shape, dtype=np.float32)


def resnet50():
    shape = (1, 3, 224, 224)
    return export(gen_models.lively(torchvision.models.resnet50(weights=None), shape), shape)


def squeezenet1_1():
    return export(torchvision.models.squeezenet1_1(weights=None), (1, 3, 224, 224))


class LRN(torch.autograd.Function):
    """nn.LocalResponseNorm exports as a chain of ops; this exports as ONNX's LRN."""

    @staticmethod
    def forward(ctx, x):
        return nn.functional.local_response_norm(x, 5, alpha=1.0, beta=0.75, k=1.0)

    @staticmethod
    def symbolic(g, x):
        return g.op("LRN", x, size_i=5, alpha_f=1.0, beta_f=0.75, bias_f=1.0)


class Dropout(torch.autograd.Function):
    """A Dropout that stays in the exported graph (an inference Dropout is the identity)."""

    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def symbolic(g, x):
        return g.op("Dropout", x)


class AvgPoolWithPad(torch.autograd.Function):
    """AvgPool2d(3, 2, padding=1, count_include_pad=True) exports as Pad + AveragePool; this as one op."""

    @staticmethod
    def forward(ctx, x):
        return nn.functional.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=True)

    @staticmethod
    def symbolic(g, x):
        return g.op("AveragePool", x, kernel_shape_i=[3, 3], strides_i=[2, 2], pads_i=[1, 1, 1, 1],
                    count_include_pad_i=1)


class Ops(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(8, 16, (1, 3), padding=(0, 1))
        self.bn1 = nn.BatchNorm2d(16)
        self.branch_a = nn.Conv2d(16, 8, 1)
        self.branch_b = nn.Conv2d(16, 8, 3, padding=2, dilation=2, groups=2)
        self.scale = nn.Parameter(torch.rand(16, 1, 1) + 0.5)
        self.bias = nn.Parameter(torch.randn(16, 1, 1))
        self.pool2 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1)
        self.fc1 = nn.Linear(16 * 4 * 4, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        y = LRN.apply(torch.relu(self.bn1(self.conv1(x))))
        y = y.view(1, 4, 4, 16, 16).transpose(1, 2).reshape(1, 16, 16, 16)  # channel shuffle, group 4
        y = torch.cat([self.branch_a(y), self.branch_b(y)], 1)
        y = AvgPoolWithPad.apply(y) * self.scale + self.bias
        y = self.pool2(y)
        y = y + torch.relu(self.conv2(y))
        y = Dropout.apply(y)
        logits = self.fc2(nn.functional.relu6(self.fc1(torch.flatten(y, 1))))
        return logits, torch.softmax(logits, 1)


def ops():
    model = Ops()
    with torch.no_grad():  # running statistics of a trained net
        model.bn1.running_mean.uniform_(-0.5, 0.5)
        model.bn1.running_var.uniform_(0.5, 2.0)
        model.bn1.weight.uniform_(0.5, 1.5)
        model.bn1.bias.uniform_(-0.5, 0.5)
    return export(model, (1, 8, 16, 16), ("logits", "output"))


MODELS = {"resnet50": resnet50, "squeezenet1_1": squeezenet1_1, "ops": ops}


def generate(out_dir, name):
    t0 = time.monotonic()
    torch.manual_seed(SEED)
    onnx_bytes, x = MODELS[name]()
    case = os.path.join(out_dir, name)
    gen_models.onnxref.write_case(case, onnx_bytes, [("input", x)])
    t1 = time.monotonic()
    gen_models.onnxref.run_ort([case])
    t2 = time.monotonic()
    predict = onnx2caffe2.convert(onnx.load_from_string(onnx_bytes), os.path.join(case, "caffe2"))
    types = sorted(set(o.type for o in predict.op))
    print(f"gen-caffe2: {name}: export {t1 - t0:.1f} s, onnxruntime {t2 - t1:.1f} s, Caffe2 net "
          f"{time.monotonic() - t2:.1f} s: {len(predict.op)} ops ({' '.join(types)})")


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(f"usage: gen-caffe2.py <out_dir> [names...]\nmodels: {' '.join(MODELS)}")
    out_dir, names = sys.argv[1], sys.argv[2:] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.exit(f"gen-caffe2: unknown model(s) {' '.join(unknown)}; known: {' '.join(MODELS)}")
    torch.set_num_threads(1)
    for name in names:
        generate(out_dir, name)


if __name__ == "__main__":
    main()
