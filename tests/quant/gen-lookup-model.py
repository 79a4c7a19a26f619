#!/usr/bin/python3
"""Writes a small float model whose activations the int8 lookup tables take (quant/fold-lookup.c).

    /usr/bin/python3 tests/quant/gen-lookup-model.py <out.onnx> [--qdq]

input float[1,8,12,12] -> Conv 3x3 -> SiLU (Sigmoid, Mul: one table) -> Conv 1x1 -> HardSwish
-> Conv 3x3 -> Tanh -> Conv 1x1 -> SiLU (the Mul's inputs the other way round) -> a squeeze-and-
excitation gate as efficientnet's (GlobalAveragePool, Conv 1x1, LeakyRelu, Conv 1x1, Sigmoid, Mul by
the broadcast gate: the Sigmoid a table, the Mul a QLinearMul) -> Conv 1x1 -> HardSigmoid -> Conv
1x1 -> output float[1,16,12,12].
With --qdq, a pre-quantized model in the QDQ form with uint8 values, as ONNX Runtime's quantizer
writes them: input float[1,4,9,9] -> QuantizeLinear -> DequantizeLinear -> Sigmoid, and -> LeakyRelu
-> QuantizeLinear -> DequantizeLinear -> Tanh, each -> QuantizeLinear -> DequantizeLinear -> Concat
-> output float[1,8,9,9] (fold-lookup runs after fold-qdq there, without a profile).
Random weights with a fixed seed: two runs write the same bytes.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(11)


def weight(name, shape):
    fan_in = int(np.prod(shape[1:]))
    return numpy_helper.from_array((RNG.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32), name)


def qdq_model():
    q = lambda v, s, z: [numpy_helper.from_array(np.float32(s), v + "_s"), numpy_helper.from_array(np.uint8(z), v + "_z")]
    inits = q("x", 0.04, 128) + q("sig", 1 / 255, 0) + q("lr", 0.03, 20) + q("th", 2 / 255, 128)
    node = helper.make_node
    qdq = lambda v, p: [node("QuantizeLinear", [v, p + "_s", p + "_z"], [v + "_q"]),
                        node("DequantizeLinear", [v + "_q", p + "_s", p + "_z"], [v + "_dq"])]
    nodes = qdq("input", "x") + [node("Sigmoid", ["input_dq"], ["sig"])] + qdq("sig", "sig") + \
        [node("LeakyRelu", ["input_dq"], ["lr"], alpha=0.2)] + qdq("lr", "lr") + \
        [node("Tanh", ["lr_dq"], ["th"])] + qdq("th", "th") + [node("Concat", ["sig_dq", "th_dq"], ["output"], axis=1)]
    graph = helper.make_graph(nodes, "lookup-tables-qdq",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 4, 9, 9])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 8, 9, 9])], inits)
    return graph


def main():
    if sys.argv[2:] == ["--qdq"]:
        graph = qdq_model()
    else:
        graph = profiled_model()
    model = helper.make_model(graph, producer_name="gen-lookup-model", opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    with open(sys.argv[1], "wb") as f:
        f.write(model.SerializeToString())


def profiled_model():
    inits = [weight("w1", (16, 8, 3, 3)), weight("w2", (16, 16, 1, 1)), weight("w3", (16, 16, 3, 3)),
             weight("w4", (16, 16, 1, 1)), weight("se1", (4, 16, 1, 1)), weight("se2", (16, 4, 1, 1)),
             weight("w5", (16, 16, 1, 1)), weight("w6", (16, 16, 1, 1))]
    node = helper.make_node
    nodes = [
        node("Conv", ["input", "w1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        node("Sigmoid", ["c1"], ["s1"], name="silu1_sigmoid"),
        node("Mul", ["c1", "s1"], ["a1"], name="silu1_mul"),
        node("Conv", ["a1", "w2"], ["c2"], name="conv2"),
        node("HardSwish", ["c2"], ["a2"], name="hardswish"),
        node("Conv", ["a2", "w3"], ["c3"], pads=[1, 1, 1, 1], name="conv3"),
        node("Tanh", ["c3"], ["a3"], name="tanh"),
        node("Conv", ["a3", "w4"], ["c4"], name="conv4"),
        node("Sigmoid", ["c4"], ["s4"], name="silu4_sigmoid"),
        node("Mul", ["s4", "c4"], ["a4"], name="silu4_mul"),  # the table's input second
        node("GlobalAveragePool", ["a4"], ["g"], name="se_pool"),
        node("Conv", ["g", "se1"], ["e1"], name="se_reduce"),
        node("LeakyRelu", ["e1"], ["e2"], alpha=0.1, name="se_leaky"),
        node("Conv", ["e2", "se2"], ["e3"], name="se_expand"),
        node("Sigmoid", ["e3"], ["gate"], name="se_sigmoid"),
        node("Mul", ["a4", "gate"], ["a5"], name="se_mul"),
        node("Conv", ["a5", "w5"], ["c5"], name="conv5"),
        node("HardSigmoid", ["c5"], ["a6"], alpha=0.25, beta=0.4, name="hardsigmoid"),
        node("Conv", ["a6", "w6"], ["output"], name="conv6"),
    ]
    return helper.make_graph(nodes, "lookup-tables",
                             [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 8, 12, 12])],
                             [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 16, 12, 12])], inits)


if __name__ == "__main__":
    main()
