#!/usr/bin/env python3
"""Writes the hostile-size inputs of the bad-input tests. Without arguments, the
small committed models (rerun to remake them):
  huge-initializer.onnx     an initializer claiming 2^40 floats with 4 bytes of data
  huge-constant-of-shape.onnx  ConstantOfShape asked for 2^40 floats (no data behind it at all)
  external-data.onnx        an initializer whose data is "in" ../../../../etc/passwd (external data)
  ../fuzz/corpus/{import-onnx,tensor-pb}/external-data*  the same as fuzzer seeds
    /usr/bin/python3 make-hostile.py
With a kind and a path, one large input, written when a test runs (too big to
commit; plain python3, no onnx module: the protobuf bytes are written by hand,
as no ONNX library would write such files):
  deep-attributes N   a node whose graph attribute holds a node whose graph attribute ... N levels
  many-nodes N        a chain of N Relu nodes
  many-messages N     one input whose shape has N dimensions (N small messages)
  caffe2-many-ops N   a Caffe2 model folder (PATH) whose predict_net is a chain of N Relu ops
  huge-histogram N    a profile entry whose Histogram has N counts
  alias-bomb N        a profile whose entries are N aliases of one entry of 10^5 counts
    python3 make-hostile.py KIND N PATH"""
import os
import sys


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(num, payload):  # a length-delimited field
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def vfield(num, v):  # a varint field
    return varint(num << 3) + varint(v)


OPSET = field(8, vfield(2, 13))  # ModelProto.opset_import {version: 13}
IR = vfield(1, 8)  # ModelProto.ir_version


def value_info(name, dims):  # ValueInfoProto {name, type {tensor_type {elem_type FLOAT, shape}}}
    shape = b"".join(field(1, vfield(1, d)) for d in dims)
    return field(1, name) + field(2, field(1, vfield(1, 1) + field(2, shape)))


def model(graph_body):
    return IR + OPSET + field(7, graph_body)


def deep_attributes(n):
    # Level k: NodeProto {op_type "If", attribute {name "g", type GRAPH, g: GraphProto {node: level k+1}}}.
    # Each level's nested field comes last, so the file is the levels' prefixes, outside in, then the
    # innermost node: lengths are computed inside out first, and no level is copied.
    inner = field(4, b"Relu") + field(1, b"x") + field(2, b"y")
    node_head = field(4, b"If") + field(1, b"c") + field(2, b"y")
    attr_head = field(1, b"g") + vfield(20, 5)
    sizes, size = [], len(inner)
    for _ in range(n):
        graph = len(varint(1 << 3 | 2)) + len(varint(size)) + size  # GraphProto {node}
        attr = len(attr_head) + len(varint(6 << 3 | 2)) + len(varint(graph)) + graph  # AttributeProto {..., g}
        node = len(node_head) + len(varint(5 << 3 | 2)) + len(varint(attr)) + attr  # NodeProto {..., attribute}
        sizes.append((node, attr, graph))
        size = node
    parts = []
    for node, attr, graph in reversed(sizes):
        parts.append(varint(1 << 3 | 2) + varint(node) + node_head + varint(5 << 3 | 2) + varint(attr) + attr_head
                     + varint(6 << 3 | 2) + varint(graph))
    top = b"".join(parts) + varint(1 << 3 | 2) + varint(len(inner)) + inner
    # The top-level graph: the nested node, input c, output y.
    return model(top + field(11, value_info(b"c", [1])) + field(12, value_info(b"y", [1])))


def many_nodes(n):
    names = [b"x"] + [b"t%d" % i for i in range(1, n)] + [b"y"]
    nodes = b"".join(field(1, field(1, names[i]) + field(2, names[i + 1]) + field(4, b"Relu")) for i in range(n))
    return model(nodes + field(11, value_info(b"x", [4])) + field(12, value_info(b"y", [4])))


def many_messages(n):
    return model(field(1, field(1, b"x") + field(2, b"y") + field(4, b"Relu"))
                 + field(11, value_info(b"x", [1] * n)) + field(12, value_info(b"y", [1])))


def caffe2_many_ops(n, folder):
    names = [b"data"] + [b"t%d" % i for i in range(1, n)] + [b"out"]
    ops = b"".join(field(2, field(1, names[i]) + field(2, names[i + 1]) + field(4, b"Relu")) for i in range(n))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "init_net.pb"), "wb") as f:
        f.write(field(1, b"init"))  # NetDef {name}
    return field(1, b"many") + ops + field(7, b"data") + field(8, b"out")  # NetDef {name, op..., inputs, outputs}


def huge_histogram(n):
    return (b"---\nGlowToolsVersion: ''\n...\n---\n- NodeOutputName: 'x'\n  Min: 0\n  Max: 1\n  Histogram: ["
            + b", ".join([b"0"] * n) + b"]\n...\n")


def alias_bomb(n):
    counts = b", ".join([b"1"] * 100000)
    return (b"---\n- &e {NodeOutputName: 'x', Min: 0, Max: 1, Histogram: [" + counts + b"]}\n"
            + b"".join(b"- *e\n" for _ in range(n)) + b"...\n")


if len(sys.argv) == 4:
    kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "caffe2-many-ops":
        data, path = caffe2_many_ops(n, path), os.path.join(path, "predict_net.pb")
    else:
        data = {"deep-attributes": deep_attributes, "many-nodes": many_nodes, "many-messages": many_messages,
                "huge-histogram": huge_histogram, "alias-bomb": alias_bomb}[kind](n)
    with open(path, "wb") as f:
        f.write(data)
    sys.exit(0)

import numpy as np  # noqa: E402 (only the committed models need onnx)
import onnx  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

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

# A Reshape whose target shape's product overflows int64 (fuzz-import-caffe2 found it through
# Caffe2's Reshape): refused naming the node before the product is taken.
shape = helper.make_tensor("shape", TensorProto.INT64, [2], np.array([255, (1 << 57) - 1], dtype=np.int64))
save(helper.make_graph([helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape_huge")], "reshape_overflow",
                       [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                       [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [shape]),
     "reshape-overflow.onnx")

# External data, pointing out of the model's folder: glowc reads no external data at all.
ext = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4], data_location=TensorProto.EXTERNAL)
for k, v in (("location", "../../../../etc/passwd"), ("offset", "0"), ("length", "16")):
    ext.external_data.add(key=k, value=v)
save(helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], name="add_external")], "external_data",
                       [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                       [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])], [ext]),
     "external-data.onnx")
corpus = os.path.join(here, "..", "fuzz", "corpus")
with open(os.path.join(here, "external-data.onnx"), "rb") as f, \
        open(os.path.join(corpus, "import-onnx", "external-data.onnx"), "wb") as g:
    g.write(f.read())
with open(os.path.join(corpus, "tensor-pb", "external-data.pb"), "wb") as f:
    f.write(ext.SerializeToString())
