#!/usr/bin/python3
"""Multiply-add work of a model: 2 x the multiply-adds of its Conv, Gemm and MatMul nodes.

    /usr/bin/python3 bench/model-flops.py <model.onnx> [graph.txt]     prints "gflop G"

Shapes come from ONNX shape inference (static shapes, as the bench models have). Where
it leaves some unknown (a Slice to sizes computed from Shape, as in shufflenet's chunk),
graph.txt gives them: glowc's graph after its shape inference, every value with its
name and shape (model-compiler -dump-after=infer-fold ... 2>graph.txt; bench/run-bench.sh
does this when the first try fails). Other
ops (pooling, elementwise, softmax) are left out: their work is small beside these and
is not multiply-add work, so the count is what the FMA peak compares with."""
import re
import sys

import numpy as np
import onnx
from onnx import shape_inference


def shapes(model):
    known = {}
    for v in list(model.graph.input) + list(model.graph.value_info) + list(model.graph.output):
        dims = [d.dim_value for d in v.type.tensor_type.shape.dim]
        if dims and all(d > 0 for d in dims):
            known[v.name] = dims
    for t in model.graph.initializer:
        known[t.name] = list(t.dims)
    return known


def dump_shapes(path):
    """{value name: shape} from model-compiler -dump-after=infer-fold ("%12:name float[1,3,224,224]")."""
    known = {}
    for m in re.finditer(r"%\d+:(\S+) \w+\[([\d,]*)\]", open(path).read()):
        known[m.group(1)] = [int(v) for v in m.group(2).split(",") if v]
    return known


def macs(node, known):
    if node.op_type not in ("Conv", "Gemm", "MatMul"):
        return 0
    ins = [known.get(i) for i in node.input]
    out = known.get(node.output[0])
    if out is None or any(s is None for s in ins[:2]):
        sys.exit("model-flops: no static shape for node %s (%s)" % (node.name, node.op_type))
    if node.op_type == "Conv":
        w = ins[1]
        return int(np.prod(out)) * int(np.prod(w[1:]))  # every output: C/group x taps
    if node.op_type == "Gemm":
        trans_a = next((a.i for a in node.attribute if a.name == "transA"), 0)
        k = ins[0][0] if trans_a else ins[0][1]
        return int(np.prod(out)) * k
    return int(np.prod(out)) * ins[0][-1]  # MatMul


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    model = shape_inference.infer_shapes(onnx.load(sys.argv[1]))
    known = shapes(model)
    if len(sys.argv) == 3:
        known = {**dump_shapes(sys.argv[2]), **known}
    total = sum(macs(n, known) for n in model.graph.node)
    print("gflop %.4f" % (2.0 * total * 1e-9))


if __name__ == "__main__":
    main()
