#!/usr/bin/python3
"""Writes a chain model for compile-time scaling: n times (Add of a [1,64] constant, Relu),
2n + 1 nodes in all, opset 13.

    /usr/bin/python3 bench/gen-chain.py <n> <out.onnx>
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

n, out = int(sys.argv[1]), sys.argv[2]
nodes, inits, prev = [], [], "x"
for i in range(n):
    inits.append(numpy_helper.from_array(np.full((1, 64), 0.001 * (i % 7), np.float32), "w%d" % i))
    nodes.append(helper.make_node("Add", [prev, "w%d" % i], ["a%d" % i]))
    nodes.append(helper.make_node("Relu", ["a%d" % i], ["r%d" % i]))
    prev = "r%d" % i
nodes.append(helper.make_node("Identity", [prev], ["y"]))
graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])], inits)
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), out)
