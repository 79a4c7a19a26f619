"""Writes the two networks of a bundle of two entries, as Glow's bundle_with_multiple_entries
has them, and what they compute, from numpy:
  net1.onnx: input1 float[2,3] -> Relu -> Add(b1) -> MatMul(w1 [3,4]) -> Relu -> output1 float[2,4]
  net2.onnx: input2 float[1,5] -> Mul(m2) -> Softmax -> output2 float[1,5]
  cases.h:   the inputs the clients feed and the outputs numpy computes for them (float64, then
             rounded to float32), as C arrays.
    make-models.py <out dir>"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
F = TensorProto.FLOAT
b1 = np.array([0.5, -1.0, 2.0], np.float32)
w1 = ((np.arange(12, dtype=np.float32) - 8) / 7).reshape(3, 4)
m2 = np.linspace(-2, 3, 5).astype(np.float32)


def save(graph, name):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    with open(os.path.join(out, name), "wb") as f:
        f.write(model.SerializeToString())


save(helper.make_graph(
    [helper.make_node("Relu", ["input1"], ["r"]), helper.make_node("Add", ["r", "b1"], ["a"]),
     helper.make_node("MatMul", ["a", "w1"], ["mm"]), helper.make_node("Relu", ["mm"], ["output1"])], "net1",
    [helper.make_tensor_value_info("input1", F, [2, 3])], [helper.make_tensor_value_info("output1", F, [2, 4])],
    [numpy_helper.from_array(b1, "b1"), numpy_helper.from_array(w1, "w1")]), "net1.onnx")
save(helper.make_graph(
    [helper.make_node("Mul", ["input2", "m2"], ["m"]), helper.make_node("Softmax", ["m"], ["output2"], axis=-1)],
    "net2", [helper.make_tensor_value_info("input2", F, [1, 5])], [helper.make_tensor_value_info("output2", F, [1, 5])],
    [numpy_helper.from_array(m2, "m2")]), "net2.onnx")

x1 = np.array([[1.0, -2.0, 3.0], [-0.5, 0.25, 4.0]], np.float32)
x2 = np.array([[0.3, -1.2, 0.7, 2.0, -0.1]], np.float32)
y1 = np.maximum((np.maximum(x1.astype(np.float64), 0) + b1) @ w1.astype(np.float64), 0)
z = x2.astype(np.float64) * m2
y2 = np.exp(z - z.max()) / np.exp(z - z.max()).sum()


def arr(name, a):
    return "static const float %s[%d] = {%s};\n" % (name, a.size, ", ".join(
        "%.9ef" % v for v in a.astype(np.float32).ravel()))


with open(os.path.join(out, "cases.h"), "w") as f:
    f.write("// Written by make-models.py: the clients' inputs and numpy's outputs for them.\n")
    f.write(arr("kInput1", x1) + arr("kOutput1", y1) + arr("kInput2", x2) + arr("kOutput2", y2))
