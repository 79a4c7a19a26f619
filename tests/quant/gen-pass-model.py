#!/usr/bin/python3
"""Writes a small float model for the quantize pass's int8 ops beyond Conv, MatMul and Add.

    /usr/bin/python3 tests/quant/gen-pass-model.py <out.onnx>

input float[1,3,32,32] -> Conv 3x3 -> Relu -> AveragePool 3x3/2 (pads, ceil_mode) -> two Convs,
their product (Mul), plus the pool (Add), beside one Conv's output (Concat) -> AveragePool 2x2/2
(count_include_pad) -> Reshape -> Transpose -> Unsqueeze -> Squeeze -> Flatten -> Gemm -> Mul 0.5
-> output float[1,10].
Random weights with a fixed seed (He-scaled, so activations keep their size): two runs
write the same bytes. tests/accuracy/run-cosine.sh quantizes it from a profile.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(7)


def weight(name, shape):
    fan_in = int(np.prod(shape[1:]))
    return numpy_helper.from_array((RNG.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


def main():
    inits = [weight("w1", (16, 3, 3, 3)), weight("w2", (16, 16, 3, 3)), weight("w3", (16, 16, 1, 1)),
             weight("fc_w", (10, 2048)), numpy_helper.from_array(np.zeros(10, np.float32) + 0.1, "fc_b"),
             ints("shape", [1, 32, 64]), ints("axes", [1]), numpy_helper.from_array(np.float32(0.5), "half")]
    node = helper.make_node
    nodes = [
        node("Conv", ["input", "w1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        node("Relu", ["c1"], ["r1"], name="relu1"),
        node("AveragePool", ["r1"], ["p1"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1,
             name="pool1"),  # 17 x 17
        node("Conv", ["p1", "w2"], ["c2"], pads=[1, 1, 1, 1], name="conv2"),
        node("Relu", ["c2"], ["r2"], name="relu2"),
        node("Conv", ["p1", "w3"], ["c3"], name="conv3"),
        node("Mul", ["r2", "c3"], ["m"], name="mul"),
        node("Add", ["m", "p1"], ["a"], name="add"),
        node("Concat", ["a", "r2"], ["cat"], axis=1, name="concat"),
        node("AveragePool", ["cat"], ["p2"], kernel_shape=[2, 2], strides=[2, 2], count_include_pad=1,
             name="pool2"),  # 32 x 8 x 8
        node("Reshape", ["p2", "shape"], ["rs"], name="reshape"),
        node("Transpose", ["rs"], ["t"], perm=[0, 2, 1], name="transpose"),
        node("Unsqueeze", ["t", "axes"], ["u"], name="unsqueeze"),
        node("Squeeze", ["u", "axes"], ["sq"], name="squeeze"),
        node("Flatten", ["sq"], ["f"], name="flatten"),
        node("Gemm", ["f", "fc_w", "fc_b"], ["logits"], transB=1, name="fc"),
        node("Mul", ["logits", "half"], ["output"], name="scale"),  # by a constant: stays float
    ]
    graph = helper.make_graph(nodes, "quantize-pass",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 32, 32])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, producer_name="gen-pass-model", opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    with open(sys.argv[1], "wb") as f:
        f.write(model.SerializeToString())


if __name__ == "__main__":
    main()
