"""Writes symbols.onnx: inputs and outputs named as Glow's examples name them ("gpu_0/data",
"gpu_0/softmax"), names that are the same after legalization ("a.b", "a_b", "a/b", "a-b";
"q__1", "q:_1"), a leading digit ("7up", also an output), and an output name of 602 bytes
(left out with --short: it is too long for a file name, as glowc-run names output files).
    make-model.py <out.onnx> [--short]"""
import sys

from onnx import TensorProto, helper

LONG = "long/" + "a" * 595 + ".x"
ins = ["gpu_0/data", "a.b", "a_b", "a/b", "q__1", "q:_1", "7up"]
f = TensorProto.FLOAT
nodes = [
    helper.make_node("Softmax", ["gpu_0/data"], ["gpu_0/softmax"], axis=1),
    # Each input's values in a row of its own, in input order: shows which buffer each name reaches.
    helper.make_node("Concat", ins[1:], ["a-b"], axis=0),
]
short = sys.argv[2:] == ["--short"]
if not short:
    nodes.append(helper.make_node("Neg", ["gpu_0/data"], [LONG]))
graph = helper.make_graph(
    nodes, "symbols", [helper.make_tensor_value_info(n, f, [1, 4]) for n in ins],
    [helper.make_tensor_value_info(n, f, s) for n, s in
     [("gpu_0/softmax", [1, 4]), ("a-b", [6, 4])] + ([] if short else [(LONG, [1, 4])]) + [("7up", [1, 4])]])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
with open(sys.argv[1], "wb") as out:
    out.write(model.SerializeToString())
