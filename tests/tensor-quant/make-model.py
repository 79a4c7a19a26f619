"""Writes quant-io.onnx: a float input x[1,4] (compiled as -model-input=x,int8q,...) and three
quantized outputs, each finding its scale and offset another way:
  y  int8[1,4]  = QuantizeLinear(Relu(x), 0.1, -7)        its producer's y_scale, y_zero_point
  z  int8[4]    = Reshape(y)                               through a Reshape, y's
  m  uint8[1,2] = QuantizeLinear(MatMul(DQ(Q(x)), DQ(w)), 0.25, 128): folded into a
                  QLinearMatMul by fold-qdq, its y_scale and y_zero_point
    make-model.py <out.onnx>"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def const(name, value):
    return numpy_helper.from_array(np.array(value), name)


nodes = [
    helper.make_node("Relu", ["x"], ["r"]),
    helper.make_node("QuantizeLinear", ["r", "ys", "yz"], ["y"]),
    helper.make_node("Reshape", ["y", "shape"], ["z"]),
    helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
    helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
    helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"]),
    helper.make_node("MatMul", ["xd", "wd"], ["mm"]),
    helper.make_node("QuantizeLinear", ["mm", "ms", "mz"], ["m"]),
]
weights = [const("ys", np.float32(0.1)), const("yz", np.int8(-7)), const("shape", np.array([4], np.int64)),
           const("xs", np.float32(0.05)), const("xz", np.int8(0)),
           const("wq", np.arange(8, dtype=np.int8).reshape(4, 2)), const("ws", np.float32(0.02)),
           const("wz", np.int8(0)), const("ms", np.float32(0.25)), const("mz", np.uint8(128))]
graph = helper.make_graph(nodes, "quant_io", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 4]),
                           helper.make_tensor_value_info("z", TensorProto.INT8, [4]),
                           helper.make_tensor_value_info("m", TensorProto.UINT8, [1, 2])], weights)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
with open(sys.argv[1], "wb") as out:
    out.write(model.SerializeToString())
