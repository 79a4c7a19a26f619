"""Writes the -model-input tests' small ONNX models into a folder:
  flat.onnx   x float[1,2,3] -> Flatten "flatten" -> MatMul W[6,4] "fc" -> Add b "bias" -> Relu "relu" -> y [1,4]
  fixed.onnx  x float[1,3] -> Reshape to the constant [1,-1] "flat" -> MatMul W2[3,2] "fc" -> y [1,2]
  index.onnx  i int64[2] -> Gather rows of a constant [5,3] "gather" -> y [2,3]
W, b and W2 are small exact binary fractions, so the checks' float64 references are exact too.
    python3 gen-models.py <dir>"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

W = (((np.arange(24) * 7) % 11 - 5) / 8.0).astype(np.float32).reshape(6, 4)
B = np.array([0.5, -0.25, 1.0, 0.0], dtype=np.float32)
W2 = (np.arange(6) / 4.0 - 0.5).astype(np.float32).reshape(3, 2)
TABLE = np.arange(15, dtype=np.float32).reshape(5, 3)


def save(path, nodes, inputs, outputs, inits):
    graph = helper.make_graph(nodes, "g", inputs, outputs, [numpy_helper.from_array(v, k) for k, v in inits])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def main(out):
    os.makedirs(out, exist_ok=True)
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64
    save(os.path.join(out, "flat.onnx"),
         [helper.make_node("Flatten", ["x"], ["f"], name="flatten", axis=1),
          helper.make_node("MatMul", ["f", "W"], ["m"], name="fc"),
          helper.make_node("Add", ["m", "b"], ["a"], name="bias"),
          helper.make_node("Relu", ["a"], ["y"], name="relu")],
         [helper.make_tensor_value_info("x", f32, [1, 2, 3])], [helper.make_tensor_value_info("y", f32, [1, 4])],
         [("W", W), ("b", B)])
    save(os.path.join(out, "fixed.onnx"),
         [helper.make_node("Reshape", ["x", "shape"], ["r"], name="flat"),
          helper.make_node("MatMul", ["r", "W2"], ["y"], name="fc")],
         [helper.make_tensor_value_info("x", f32, [1, 3])], [helper.make_tensor_value_info("y", f32, [1, 2])],
         [("shape", np.array([1, -1], dtype=np.int64)), ("W2", W2)])
    save(os.path.join(out, "index.onnx"),
         [helper.make_node("Gather", ["table", "i"], ["y"], name="gather", axis=0)],
         [helper.make_tensor_value_info("i", i64, [2])], [helper.make_tensor_value_info("y", f32, [2, 3])],
         [("table", TABLE)])


if __name__ == "__main__":
    main(sys.argv[1])
