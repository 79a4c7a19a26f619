#!/usr/bin/env python3
"""Writes the hostile-size models of the bad-input tests (committed; rerun to remake them):
  huge-initializer.onnx     an initializer claiming 2^40 floats with 4 bytes of data
  huge-constant-of-shape.onnx  ConstantOfShape asked for 2^40 floats (no data behind it at all)
    /usr/bin/python3 make-hostile.py"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))


def save(graph, name):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="glowc-tests")
    onnx.save(model, os.path.join(here, name))


w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[1 << 20, 1 << 20], raw_data=b"\0\0\0\0")
save(helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], name="add_huge")], "huge_initializer",
                       [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                       [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w]),
     "huge-initializer.onnx")

shape = helper.make_tensor("shape", TensorProto.INT64, [2], np.array([1 << 20, 1 << 20], dtype=np.int64))
save(helper.make_graph([helper.make_node("ConstantOfShape", ["shape"], ["c"], name="fill_huge"),
                        helper.make_node("Add", ["x", "c"], ["y"], name="add")], "huge_constant_of_shape",
                       [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                       [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [shape]),
     "huge-constant-of-shape.onnx")
