#!/usr/bin/python3
"""Generates the coverage cases: small one-op ONNX models for the dtype, attribute and opset
combinations the ONNX node tests (tests/conformance) leave out, with ONNX Runtime's outputs.

    /usr/bin/python3 tests/coverage/gen-coverage.py <out_dir> [--filter RE] [--list]

Writes <out_dir>/<case>/model.onnx and test_data_set_0/input_N.pb, output_N.pb (the node-test
layout run-conformance.py reads). Inputs are random with a seed taken from the case name, so two
runs write the same bytes. Shapes, axes, pads and other "parameter" inputs are initializers, as
an exporter would write them. Cases ONNX Runtime 1.30 cannot run (no kernel for that dtype) are
skipped (ORT_LACKS): ORT is the reference, so there is nothing to compare against.

Needs /usr/bin/python3 with onnx and numpy, `node` and onnxruntime-node (scripts/install-deps.sh).
"""
import argparse
import os
import re
import shutil
import sys
import zlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(HERE, "..", "reference"))
import onnxref  # noqa: E402

F16, F32, F64 = np.float16, np.float32, np.float64
I8, I16, I32, I64 = np.int8, np.int16, np.int32, np.int64
U8, U16, U32, U64 = np.uint8, np.uint16, np.uint32, np.uint64
BOOL = np.bool_
INTS = [I8, I16, I32, I64, U8, U16, U32, U64]
FLOATS = [F64, F16]
NUMERIC = [F32, F64, F16] + INTS
SHORT = {F16: "f16", F32: "f32", F64: "f64", I8: "i8", I16: "i16", I32: "i32", I64: "i64",
         U8: "u8", U16: "u16", U32: "u32", U64: "u64", BOOL: "bool"}
ONNX_TYPE = {F16: TensorProto.FLOAT16, F32: TensorProto.FLOAT, F64: TensorProto.DOUBLE,
             I8: TensorProto.INT8, I16: TensorProto.INT16, I32: TensorProto.INT32,
             I64: TensorProto.INT64, U8: TensorProto.UINT8, U16: TensorProto.UINT16,
             U32: TensorProto.UINT32, U64: TensorProto.UINT64, BOOL: TensorProto.BOOL}

CASES = {}  # name -> function returning (model bytes, [(input name, array)])

# Valid ONNX that ONNX Runtime 1.30 has no kernel for (nothing to compare against): not written.
# Any other case ORT cannot run stops the generator.
ORT_LACKS = set("""
    acos_f64 acosh_f64 asin_f64 asinh_f64 atan_f64 atanh_f64 cosh_f64 sinh_f64 tan_f64 erf_f64
    softplus_f64 softsign_f64 elu_f64 selu_f64 leakyrelu_f64 hardsigmoid_f64 hardswish_f64
    thresholdedrelu_f64 gelu_none_f64 hardmax_f64 celu_f16 celu_f64 isinf_f16 relu_i16 relu_i64
    prelu_u8 bitshift_left_u16 bitshift_right_u16 max_i16_bcast3 max_u16_bcast3 min_i16_bcast3
    min_u16_bcast3 mean_f64_bcast3 where_bool_bcast where_i8_bcast where_i16_bcast where_u16_bcast
    where_u32_bcast where_u64_bcast conv_2d_f64 onehot_axis0_i32 onehot_float_indices
""".split())


class In:
    """A graph input (random data) of a node."""
    def __init__(self, x):
        self.x = x


class K:
    """An initializer (constant) input of a node."""
    def __init__(self, x):
        self.x = np.asarray(x)


def rng_for(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


def rand(shape, dtype, lo=None, hi=None, rng=None):
    """Random values that every dtype holds exactly and no op overflows on by accident."""
    dtype = np.dtype(dtype).type
    if dtype == BOOL:
        return rng.random(shape) < 0.5
    if dtype in (F16, F32, F64):
        lo = -2.0 if lo is None else lo
        hi = 2.0 if hi is None else hi
        return rng.uniform(lo, hi, shape).astype(dtype)
    signed = np.issubdtype(dtype, np.signedinteger)
    lo = (-20 if signed else 0) if lo is None else lo
    hi = (20 if signed else 40) if hi is None else hi
    return rng.integers(lo, hi, shape, endpoint=True).astype(dtype)


def make_inputs(named, rng):
    """Graph inputs, initializers and feeds of (name, In / K / function of rng) pairs."""
    graph_inputs, inits, feeds = [], [], []
    for n, v in named:
        v = v(rng) if callable(v) else v
        if isinstance(v, In):
            x = np.asarray(v.x)
            graph_inputs.append(helper.make_tensor_value_info(n, ONNX_TYPE[x.dtype.type], x.shape))
            feeds.append((n, x))
        else:
            inits.append(numpy_helper.from_array(v.x, n))
    return graph_inputs, inits, feeds


def add(name, op, inputs, attrs=None, opset=13, outs=1, out_types=None):
    """Registers a one-node case. inputs: In(array), K(array), None (omitted optional input),
    or a function of the case's rng returning one of those (so data depends on the name).
    op may also be a list of (op, attrs): one node each, all on the same inputs, one output each."""
    if name in CASES:
        raise SystemExit("gen-coverage: duplicate case " + name)
    if name in ORT_LACKS:
        return

    def build():
        names = ["" if v is None else "x%d" % i for i, v in enumerate(inputs)]
        graph_inputs, inits, feeds = make_inputs([(n, v) for n, v in zip(names, inputs) if n], rng_for(name))
        if isinstance(op, list):
            out_names = ["y%d" % i for i in range(len(op))]
            nodes = [helper.make_node(o, names, [y], **a) for (o, a), y in zip(op, out_names)]
        else:
            out_names = ["y"] if outs == 1 else ["y%d" % i for i in range(outs)]
            nodes = [helper.make_node(op, names, out_names, **(attrs or {}))]
        types = out_types or [None] * len(out_names)
        graph = helper.make_graph(nodes, name, graph_inputs,
                                  [helper.make_tensor_value_info(n, 0, None) for n in out_names], inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                                  producer_name="gen-coverage")
        model.ir_version = 8
        if opset <= 17:
            inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
            known = {v.name: v for v in inferred.graph.value_info}
            known.update({v.name: v for v in inferred.graph.output})
        else:
            known = {}
        del model.graph.output[:]
        for n, t in zip(out_names, types):
            if n in known and known[n].type.tensor_type.elem_type:
                model.graph.output.append(known[n])
            else:
                # Not known to onnx 1.12 (opset 18+): the given type, or the first input's.
                t = t if t is not None else feeds[0][1].dtype.type
                model.graph.output.append(helper.make_tensor_value_info(n, ONNX_TYPE[np.dtype(t).type], None))
        return model.SerializeToString(), feeds

    CASES[name] = build


def R(shape, dtype=F32, lo=None, hi=None):
    """A graph input of random values (drawn from the case's rng)."""
    return lambda rng: In(rand(shape, dtype, lo, hi, rng))


def RK(shape, dtype=F32, lo=None, hi=None):
    """An initializer of random values (drawn from the case's rng)."""
    return lambda rng: K(rand(shape, dtype, lo, hi, rng))


# ---- elementwise ---------------------------------------------------------------------------

def elementwise():
    bcast = ([2, 1, 4], [3, 1])
    for op in ["Add", "Sub", "Mul", "Div"]:
        for t in NUMERIC:
            lo = 1 if op == "Div" and t not in (F32, F64, F16) else None
            hi = 9 if lo else None
            b = R(bcast[1], t, 0.5, 2.0) if op == "Div" and t in (F32, F64, F16) else R(bcast[1], t, lo, hi)
            add("%s_%s_bcast" % (op.lower(), SHORT[t]), op, [R(bcast[0], t), b], opset=14)
    for t in [F64, F16]:
        add("pow_%s" % SHORT[t], "Pow", [R([2, 3], t, 0.5, 2.0), R([3], t, -2, 2)], opset=15)
    for t, e in [(F32, I32), (F32, I64), (I32, I32), (I64, I64), (I32, F32), (F64, I64)]:
        add("pow_%s_%s" % (SHORT[t], SHORT[e]), "Pow",
            [R([2, 3], t, 1, 3), R([1, 3], e, 0, 3)], opset=15)
    for t in INTS:
        signed = np.issubdtype(t, np.signedinteger)
        for fmod in (0, 1):
            add("mod_%s_fmod%d" % (SHORT[t], fmod), "Mod",
                [R([2, 1, 4], t, -30 if signed else 0, 30), R([3, 1], t, 1, 7) if not signed else
                 (lambda rng, t=t: In(rand([3, 1], t, 1, 7, rng) * np.array([[1], [-1], [1]], t)))],
                attrs={"fmod": fmod})
    for t in [F64, F16, F32]:
        add("mod_%s_fmod1_bcast" % SHORT[t], "Mod", [R([2, 1, 4], t, -5, 5), R([3, 1], t, 0.5, 2)],
            attrs={"fmod": 1})
    for t in [U8, U16, U32, U64]:
        for d in ["LEFT", "RIGHT"]:
            bits = np.dtype(t).itemsize * 8
            add("bitshift_%s_%s" % (d.lower(), SHORT[t]), "BitShift",
                [R([2, 1, 4], t, 0, 255), R([3, 1], t, 0, bits - 1)], attrs={"direction": d}, opset=11)
    for op in ["And", "Or", "Xor"]:
        add("%s_bool_bcast" % op.lower(), op, [R([2, 1, 4], BOOL), R([3, 1], BOOL)], opset=7)
    add("not_bool_3d", "Not", [R([2, 3, 4], BOOL)], opset=1)
    for op in ["Min", "Max"]:
        for t in NUMERIC:
            add("%s_%s_bcast3" % (op.lower(), SHORT[t]), op,
                [R([2, 1, 4], t), R([3, 1], t), R([4], t)], opset=13)
    for op in ["Sum", "Mean"]:
        for t in [F64, F16]:
            add("%s_%s_bcast3" % (op.lower(), SHORT[t]), op,
                [R([2, 1, 4], t), R([3, 1], t), R([4], t)], opset=13)
    for op in ["Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"]:
        types = NUMERIC + [BOOL] if op == "Equal" else NUMERIC if op == "Less" else [F64, F16, I8, U16, U64]
        for t in types:
            add("%s_%s_bcast" % (op.lower(), SHORT[t]), op,
                [R([2, 1, 4], t, 0, 4) if t != BOOL else R([2, 1, 4], t),
                 R([3, 1], t, 0, 4) if t != BOOL else R([3, 1], t)], opset=16 if "Or" in op else 13)
    for t in NUMERIC + [BOOL]:
        add("where_%s_bcast" % SHORT[t], "Where", [R([2, 1, 4], BOOL), R([3, 1], t), R([4], t)], opset=16)


def unary():
    ops = {"Abs": None, "Neg": None, "Sqrt": (0.1, 4), "Exp": None, "Log": (0.1, 4), "Floor": None,
           "Ceil": None, "Round": None, "Sign": None, "Sin": None, "Cos": None, "Tan": (-1, 1),
           "Asin": (-0.9, 0.9), "Acos": (-0.9, 0.9), "Atan": None, "Sinh": None, "Cosh": None,
           "Asinh": None, "Acosh": (1.1, 4), "Atanh": (-0.9, 0.9), "Erf": None, "Tanh": None,
           "Sigmoid": None, "Reciprocal": (0.5, 2), "Relu": None, "Softplus": None, "Softsign": None,
           "IsNaN": None, "IsInf": None, "HardSwish": None}
    for op, rng in ops.items():
        lo, hi = rng or (None, None)
        for t in FLOATS:
            add("%s_%s" % (op.lower(), SHORT[t]), op, [R([2, 3, 4], t, lo, hi)], opset=14)
    for op in ["Abs", "Neg", "Sign", "Relu"]:
        for t in [I8, I16, I32, I64] + ([U8, U16, U32, U64] if op in ("Abs", "Sign") else []):
            add("%s_%s" % (op.lower(), SHORT[t]), op, [R([2, 3, 4], t)], opset=14)
    acts = [("LeakyRelu", {"alpha": 0.2}, 6), ("Elu", {"alpha": 0.7}, 6), ("Selu", {}, 6),
            ("Celu", {"alpha": 1.5}, 12), ("HardSigmoid", {"alpha": 0.3, "beta": 0.4}, 6),
            ("ThresholdedRelu", {"alpha": 0.5}, 10), ("Shrink", {"bias": 0.2, "lambd": 0.6}, 9),
            ("Mish", {}, 18)]
    for op, attrs, opset in acts:
        for t in [F32, F64, F16]:
            add("%s_%s" % (op.lower(), SHORT[t]), op, [R([2, 3, 4], t, -4, 4)], attrs=attrs, opset=opset)
    for approx in ["none", "tanh"]:
        for t in [F32, F64, F16]:
            add("gelu_%s_%s" % (approx, SHORT[t]), "Gelu", [R([2, 3, 4], t, -4, 4)],
                attrs={"approximate": approx}, opset=20)
    for shape in [[3, 1, 1], [1], [4], [2, 3, 4]]:
        add("prelu_slope%s" % "x".join(map(str, shape)), "PRelu",
            [R([2, 3, 4, 4]) if len(shape) != 3 or shape[0] != 2 else R([2, 3, 4]), RK(shape, F32, 0, 1)],
            opset=16)
    for t in [F64, F16, I32, I64, U8]:
        add("prelu_%s" % SHORT[t], "PRelu", [R([2, 3, 4], t), RK([4], t, 0, 3)], opset=16)
    for t in [F64, F16, I8, I32, I64, U8, U64]:
        lo, hi = (K(np.array(-1, t)) if t not in (U8, U64) else K(np.array(3, t))), K(np.array(10, t))
        add("clip_%s" % SHORT[t], "Clip", [R([3, 4], t), lo, hi], opset=13)
        add("clip_%s_min_only" % SHORT[t], "Clip", [R([3, 4], t), lo, None], opset=13)
        add("clip_%s_max_only" % SHORT[t], "Clip", [R([3, 4], t), None, hi], opset=13)


def cast():
    """One case per source type and signedness of the values: a Cast to every other type each."""
    types = [F32, F64, F16, I8, I16, I32, I64, U8, U16, U32, U64, BOOL]
    unsigned = (U8, U16, U32, U64, BOOL)
    for src in types:
        for neg in ((False, True) if src not in unsigned else (False,)):
            dsts = [t for t in types if t != src and not (neg and t in unsigned)]

            def data(rng, src=src, neg=neg):
                if src == BOOL:
                    return In(rand([3, 4], BOOL, rng=rng))
                # In range for every destination; negatives only for signed destinations.
                x = rng.uniform(-100 if neg else 0, 100, [3, 4])
                x[0, 0] = 0
                return In(x.astype(src) if src in (F32, F64, F16) else np.trunc(x).astype(src))
            add("cast_%s%s_to_all" % (SHORT[src], "_neg" if neg else ""),
                [("Cast", {"to": ONNX_TYPE[d]}) for d in dsts], [data], opset=13)


# ---- reductions ----------------------------------------------------------------------------

def reductions():
    ops = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
           "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"]
    for op in ops:
        positive = op in ("ReduceLogSum",)
        for t in [F64, I32, I64, F16]:
            if t in (I32, I64) and op in ("ReduceL2", "ReduceLogSum", "ReduceLogSumExp"):
                continue
            lo, hi = (0.5, 2) if positive or op == "ReduceProd" else (None, None)
            if t in (I32, I64):
                lo, hi = (1, 3) if op == "ReduceProd" else (-9, 9)
            x = R([2, 3, 4], t, lo, hi)
            forms = [([-1], 0), ([0, 2], 1), ([-3, -2], 0)]
            for axes, keep in [forms[(ops.index(op) + [F64, I32, I64, F16].index(t)) % 3]]:
                tag = "%s_%s_axes%s_keep%d" % (op[6:].lower(), SHORT[t], "_".join(
                    str(a).replace("-", "m") for a in axes), keep)
                add("reduce" + tag, op, [x, K(np.array(axes, I64))], attrs={"keepdims": keep}, opset=18)
        add("reduce%s_all_keep0" % op[6:].lower(), op, [R([2, 3, 4], F32, 0.5, 2)], attrs={"keepdims": 0},
            opset=18)
        # opset 13 (axes attribute; ReduceSum takes them as input), and noop_with_empty_axes.
        x = R([2, 3, 4], F32, 0.5, 2)
        if op == "ReduceSum":
            add("reducesum_op13_axes_m2", op, [x, K(np.array([-2], I64))], attrs={"keepdims": 0}, opset=13)
        else:
            add("reduce%s_op13_axes_m2" % op[6:].lower(), op, [x], attrs={"axes": [-2], "keepdims": 0},
                opset=13)
        add("reduce%s_noop_empty_axes" % op[6:].lower(), op, [x, K(np.array([], I64))],
            attrs={"noop_with_empty_axes": 1}, opset=18)
    for op in ["ArgMax", "ArgMin"]:
        for t in [F64, I32, I64, U8, F16]:
            forms = [(-1, 0, 0), (1, 1, 1), (0, 0, 1)]
            for axis, keep, last in [forms[[F64, I32, I64, U8, F16].index(t) % 3]]:
                add("%s_%s_axis%s_keep%d_last%d" % (op.lower(), SHORT[t], str(axis).replace("-", "m"),
                                                    keep, last),
                    op, [R([3, 4, 5], t, 0, 3)],
                    attrs={"axis": axis, "keepdims": keep, "select_last_index": last}, opset=13)
    for op in ["Softmax", "LogSoftmax", "Hardmax"]:
        for opset in (11, 13):
            for axis in range(-3, 3):
                add("%s_op%d_axis%s" % (op.lower(), opset, str(axis).replace("-", "m")), op,
                    [R([2, 3, 4], F32, -3, 3)], attrs={"axis": axis}, opset=opset)
        add("%s_f64" % op.lower(), op, [R([2, 3, 4], F64, -3, 3)], attrs={"axis": 1}, opset=13)
        add("%s_f16" % op.lower(), op, [R([2, 3, 4], F16, -3, 3)], attrs={"axis": -1}, opset=13)


# ---- convolution and pooling ---------------------------------------------------------------

def conv():
    # name, input shape, weight shape, attrs
    convs = [
        ("1d_group_dil_stride_pads", [1, 4, 11], [6, 2, 3],
         {"group": 2, "dilations": [2], "strides": [2], "pads": [1, 2]}),
        ("1d_same_upper", [1, 2, 9], [3, 2, 4], {"auto_pad": "SAME_UPPER", "strides": [2]}),
        ("1d_same_lower", [1, 2, 9], [3, 2, 4], {"auto_pad": "SAME_LOWER", "strides": [2]}),
        ("1d_valid", [2, 2, 9], [3, 2, 3], {"auto_pad": "VALID", "dilations": [2]}),
        ("2d_group_dil_stride_asym", [1, 6, 9, 8], [6, 2, 3, 2],
         {"group": 3, "dilations": [2, 1], "strides": [1, 2], "pads": [0, 1, 2, 0]}),
        ("2d_same_upper_stride", [1, 3, 7, 8], [4, 3, 3, 3], {"auto_pad": "SAME_UPPER", "strides": [2, 3]}),
        ("2d_same_lower_stride", [1, 3, 7, 8], [4, 3, 2, 3], {"auto_pad": "SAME_LOWER", "strides": [2, 1]}),
        ("2d_depthwise_stride", [1, 4, 9, 9], [4, 1, 3, 3], {"group": 4, "strides": [2, 2], "pads": [1, 1, 1, 1]}),
        # Padded planes larger than the plane kernel's buffer: it runs bands of output rows
        ("2d_depthwise_bands_stride", [1, 3, 130, 150], [3, 1, 3, 3],
         {"group": 3, "strides": [2, 2], "pads": [1, 1, 1, 1]}),
        ("2d_group_bands_dil_asym", [1, 4, 100, 140], [4, 2, 3, 2],
         {"group": 2, "dilations": [2, 1], "strides": [1, 2], "pads": [2, 0, 1, 1]}),
        # Depthwise, 16 channels to a vector (kernels/conv-dw.c): narrow outputs, a last block of
        # fewer than 16 channels, odd and asymmetric pads, dilations, batches, bands, 1-D
        ("2d_dw16_5x5", [1, 20, 7, 7], [20, 1, 5, 5], {"group": 20, "pads": [2, 2, 2, 2]}),
        ("2d_dw16_stride_asym", [2, 32, 15, 13], [32, 1, 3, 3],
         {"group": 32, "strides": [2, 2], "pads": [1, 0, 0, 1]}),
        ("2d_dw16_dil_stride", [1, 17, 9, 10], [17, 1, 3, 2],
         {"group": 17, "dilations": [2, 3], "strides": [1, 2], "pads": [2, 1, 1, 2]}),
        ("2d_dw16_bands", [1, 16, 40, 28], [16, 1, 5, 5], {"group": 16, "pads": [2, 2, 2, 2]}),
        ("1d_dw16_stride", [1, 16, 25], [16, 1, 5], {"group": 16, "strides": [2], "pads": [2, 2]}),
        ("3d_basic", [1, 2, 5, 6, 5], [3, 2, 3, 3, 3], {}),
        ("3d_group_dil_stride_asym", [1, 4, 7, 6, 8], [4, 2, 2, 3, 2],
         {"group": 2, "dilations": [2, 1, 2], "strides": [1, 2, 2], "pads": [1, 0, 1, 0, 2, 0]}),
        ("3d_same_upper", [1, 2, 5, 6, 7], [2, 2, 3, 2, 3], {"auto_pad": "SAME_UPPER", "strides": [2, 2, 2]}),
        ("3d_same_lower", [1, 2, 5, 6, 7], [2, 2, 2, 2, 3], {"auto_pad": "SAME_LOWER"}),
        ("3d_valid", [1, 2, 5, 6, 7], [2, 2, 2, 3, 2], {"auto_pad": "VALID", "strides": [2, 1, 3]}),
    ]
    for name, xs, ws, attrs in convs:
        add("conv_" + name, "Conv", [R(xs), RK(ws), RK([ws[0]])], attrs=attrs, opset=11)
    # Inputs over 1 MB with small weights: the packed kernel runs spans of pixels through every
    # block of output channels (the last span shorter). Small weights: sums of hundreds of
    # products near 0 stay within the absolute tolerance.
    spans = [("2d_1x1_stride_spans", [1, 96, 58, 58], [48, 96, 1, 1], {"strides": [2, 2]}),
             ("2d_3x3_stride_spans", [1, 72, 64, 60], [96, 72, 3, 3], {"strides": [2, 2], "pads": [1, 1, 1, 1]}),
             # an input of 1.5 MB per image for one output pixel: spans of the minimum, 48 pixels
             ("2d_1x1_stride_spans_one_pixel", [2, 2560, 12, 12], [16, 2560, 1, 1], {"strides": [12, 12]})]
    for name, xs, ws, attrs in spans:
        add("conv_" + name, "Conv", [R(xs), RK(ws, lo=-0.05, hi=0.05), RK([ws[0]])], attrs=attrs, opset=11)
    add("conv_2d_f64", "Conv", [R([1, 2, 5, 5], F64), RK([3, 2, 3, 3], F64)], attrs={"pads": [1, 1, 1, 1]},
        opset=11)
    add("conv_2d_f16", "Conv", [R([1, 2, 5, 5], F16), RK([3, 2, 3, 3], F16)], attrs={"pads": [1, 1, 1, 1]},
        opset=11)
    convts = [
        ("1d_stride_pads_outpad", [1, 2, 5], [2, 3, 3], {"strides": [2], "pads": [1, 0], "output_padding": [1]}),
        ("1d_group_dil", [1, 4, 5], [4, 2, 3], {"group": 2, "dilations": [2]}),
        ("1d_output_shape", [1, 2, 5], [2, 3, 3], {"strides": [2], "output_shape": [12]}),
        ("1d_same_upper", [1, 2, 5], [2, 3, 3], {"strides": [2], "auto_pad": "SAME_UPPER"}),
        ("1d_same_lower", [1, 2, 5], [2, 3, 4], {"strides": [2], "auto_pad": "SAME_LOWER"}),
        ("2d_group_dil_stride_asym", [1, 4, 4, 5], [4, 3, 3, 2],
         {"group": 2, "dilations": [1, 2], "strides": [2, 3], "pads": [1, 0, 0, 2], "output_padding": [1, 2]}),
        ("2d_output_shape", [1, 2, 3, 3], [2, 2, 3, 3], {"strides": [3, 2], "output_shape": [10, 8]}),
        ("2d_same_upper", [1, 2, 3, 4], [2, 2, 3, 3], {"strides": [2, 2], "auto_pad": "SAME_UPPER"}),
        ("2d_same_lower", [1, 2, 3, 4], [2, 2, 2, 2], {"strides": [2, 2], "auto_pad": "SAME_LOWER"}),
        ("2d_valid", [1, 2, 3, 4], [2, 2, 2, 3], {"strides": [1, 2], "auto_pad": "VALID"}),
        ("3d_group_stride_pads", [1, 4, 3, 4, 3], [4, 1, 2, 3, 2],
         {"group": 4, "strides": [2, 1, 2], "pads": [0, 1, 1, 1, 0, 0]}),
        ("3d_dil_outpad", [1, 2, 3, 3, 2], [2, 2, 2, 2, 2],
         {"dilations": [2, 1, 2], "strides": [2, 2, 2], "output_padding": [1, 0, 1]}),
    ]
    for name, xs, ws, attrs in convts:
        cout = ws[1] * attrs.get("group", 1)
        add("convtranspose_" + name, "ConvTranspose", [R(xs), RK(ws), RK([cout])], attrs=attrs, opset=11)


def pool():
    pools = [
        ("maxpool_1d_ceil_dil", "MaxPool", [1, 2, 11],
         {"kernel_shape": [3], "strides": [2], "dilations": [2], "ceil_mode": 1}, 12),
        ("maxpool_1d_pads", "MaxPool", [1, 2, 9], {"kernel_shape": [3], "strides": [2], "pads": [1, 2]}, 12),
        ("maxpool_2d_ceil_dil_pads", "MaxPool", [1, 2, 9, 8],
         {"kernel_shape": [2, 3], "strides": [2, 2], "dilations": [2, 1], "pads": [1, 0, 0, 1], "ceil_mode": 1},
         12),
        ("maxpool_2d_same_lower", "MaxPool", [1, 2, 7, 8],
         {"kernel_shape": [3, 2], "strides": [2, 3], "auto_pad": "SAME_LOWER"}, 12),
        # Rows of 16 outputs and more (float32 2-D rows in vectors, kernels/pool.c), both strides
        ("maxpool_2d_wide_s1_pads", "MaxPool", [1, 3, 5, 45], {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}, 12),
        ("maxpool_2d_wide_s2_dil_ceil", "MaxPool", [1, 2, 7, 77],
         {"kernel_shape": [3, 3], "strides": [2, 2], "dilations": [1, 2], "pads": [0, 1, 1, 0], "ceil_mode": 1}, 12),
        # Rows of fewer than 16 outputs (float32 planes through two stack buffers, kernels/pool.c
        # maxpool_planes_f32): googlenet's 14 x 14 and 28 -> 14, dilations with asymmetric pads, a
        # wide window; and a plane too big for the buffers (the loop over taps)
        ("maxpool_2d_planes_s1_pads_14", "MaxPool", [1, 3, 14, 14], {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]},
         12),
        ("maxpool_2d_planes_s2_ceil_28", "MaxPool", [1, 2, 28, 28],
         {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}, 12),
        ("maxpool_2d_planes_dil_asym", "MaxPool", [1, 2, 13, 11],
         {"kernel_shape": [3, 2], "strides": [1, 2], "dilations": [2, 2], "pads": [2, 1, 0, 1]}, 12),
        ("maxpool_2d_planes_k5_s3", "MaxPool", [1, 2, 20, 15],
         {"kernel_shape": [5, 5], "strides": [3, 3], "pads": [2, 2, 2, 2]}, 12),
        ("maxpool_2d_planes_too_big", "MaxPool", [1, 1, 100, 100], {"kernel_shape": [3, 3], "strides": [8, 8]}, 12),
        ("maxpool_3d_ceil_dil", "MaxPool", [1, 2, 7, 6, 7],
         {"kernel_shape": [2, 3, 2], "strides": [2, 1, 2], "dilations": [1, 2, 2], "ceil_mode": 1}, 12),
        ("maxpool_3d_same_upper", "MaxPool", [1, 2, 5, 6, 7],
         {"kernel_shape": [2, 2, 3], "strides": [2, 2, 2], "auto_pad": "SAME_UPPER"}, 12),
        ("avgpool_1d_ceil_pads_incl", "AveragePool", [1, 2, 10],
         {"kernel_shape": [3], "strides": [2], "pads": [1, 1], "ceil_mode": 1, "count_include_pad": 1}, 11),
        ("avgpool_1d_ceil_pads_excl", "AveragePool", [1, 2, 10],
         {"kernel_shape": [3], "strides": [2], "pads": [1, 1], "ceil_mode": 1}, 11),
        ("avgpool_2d_asym_pads_incl", "AveragePool", [1, 2, 7, 8],
         {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [2, 0, 1, 1], "count_include_pad": 1}, 11),
        ("avgpool_2d_same_lower", "AveragePool", [1, 2, 7, 8],
         {"kernel_shape": [3, 2], "strides": [2, 3], "auto_pad": "SAME_LOWER"}, 11),
        ("avgpool_3d_ceil_incl", "AveragePool", [1, 2, 7, 6, 5],
         {"kernel_shape": [2, 3, 2], "strides": [2, 2, 2], "pads": [1, 1, 0, 0, 1, 1], "ceil_mode": 1,
          "count_include_pad": 1}, 11),
        ("avgpool_3d_excl", "AveragePool", [1, 2, 7, 6, 5],
         {"kernel_shape": [3, 3, 3], "strides": [2, 2, 2], "pads": [1, 1, 1, 1, 1, 1]}, 11),
        ("avgpool_2d_dil_ceil", "AveragePool", [1, 2, 9, 9],
         {"kernel_shape": [3, 2], "strides": [2, 2], "dilations": [2, 2], "ceil_mode": 1}, 19),
        ("avgpool_1d_dil_pads_incl", "AveragePool", [1, 2, 11],
         {"kernel_shape": [3], "strides": [1], "dilations": [2], "pads": [2, 1], "count_include_pad": 1}, 19),
    ]
    for p in (1, 2, 3):
        pools += [
            ("lppool_p%d_2d" % p, "LpPool", [1, 2, 6, 7], {"kernel_shape": [2, 3], "strides": [2, 2], "p": p}, 11),
            ("lppool_p%d_1d_pads" % p, "LpPool", [1, 2, 9], {"kernel_shape": [3], "pads": [1, 1], "p": p}, 11),
            ("lppool_p%d_3d" % p, "LpPool", [1, 2, 4, 5, 4], {"kernel_shape": [2, 2, 2], "p": p}, 11),
            ("lppool_p%d_dil_ceil" % p, "LpPool", [1, 2, 8, 9],
             {"kernel_shape": [2, 2], "strides": [2, 2], "dilations": [2, 1], "ceil_mode": 1, "p": p}, 18),
        ]
    for name, op, xs, attrs, opset in pools:
        add(name, op, [R(xs)], attrs=attrs, opset=opset)
    add("maxpool_2d_indices", "MaxPool", [R([1, 2, 5, 6])],
        attrs={"kernel_shape": [2, 2], "strides": [2, 2], "pads": [0, 1, 1, 0]}, opset=12, outs=2)
    add("maxpool_2d_indices_colmajor", "MaxPool", [R([2, 2, 4, 5])],
        attrs={"kernel_shape": [3, 2], "storage_order": 1}, opset=12, outs=2)
    add("maxpool_2d_f64", "MaxPool", [R([1, 2, 6, 6], F64)], attrs={"kernel_shape": [2, 2]}, opset=12)
    add("maxpool_2d_i8", "MaxPool", [R([1, 2, 6, 6], I8)], attrs={"kernel_shape": [2, 2]}, opset=12)
    add("maxpool_2d_u8", "MaxPool", [R([1, 2, 6, 6], U8)], attrs={"kernel_shape": [2, 2]}, opset=12)
    # int8 planes through the padded stack buffer (kernels/pool.c, maxpool_planes): pads, dilations,
    # ceil mode, rows shorter than a vector, both strides; and a plane too big for it (row loop)
    qpools = [
        ("ceil_dil_pads", [1, 2, 9, 8],
         {"kernel_shape": [2, 3], "strides": [2, 2], "dilations": [2, 1], "pads": [1, 0, 0, 1], "ceil_mode": 1}),
        ("same_lower", [1, 2, 7, 8], {"kernel_shape": [3, 2], "strides": [2, 3], "auto_pad": "SAME_LOWER"}),
        ("s1_pads_28", [1, 3, 28, 28], {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}),
        ("s2_ceil_27", [1, 2, 27, 27], {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
        ("s2_dil_ceil_wide", [1, 2, 7, 77],
         {"kernel_shape": [3, 3], "strides": [2, 2], "dilations": [1, 2], "pads": [0, 1, 1, 0], "ceil_mode": 1}),
        ("big_plane", [1, 1, 190, 190], {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}),
    ]
    for name, xs, attrs in qpools:
        for suf, dt in (("u8", U8), ("i8", I8)):
            add("maxpool_q_%s_%s" % (name, suf), "MaxPool", [R(xs, dt)], attrs=attrs, opset=12)
    for op in ["GlobalMaxPool", "GlobalAveragePool"]:
        for xs in ([2, 3, 7], [1, 2, 3, 4, 5]):
            add("%s_%dd" % (op.lower(), len(xs) - 2), op, [R(xs)], opset=1)
    for p in (1, 3):
        add("globallppool_p%d" % p, "GlobalLpPool", [R([1, 3, 4, 5])], attrs={"p": p}, opset=2)


def norms():
    for xs in ([2, 3, 5], [1, 3, 2, 3, 4]):
        c = xs[1]
        add("batchnorm_%dd" % (len(xs) - 2), "BatchNormalization",
            [R(xs), RK([c]), RK([c]), RK([c]), RK([c], F32, 0.5, 2)], attrs={"epsilon": 1e-3}, opset=15)
    add("batchnorm_f64", "BatchNormalization",
        [R([2, 3, 4], F64), RK([3], F64), RK([3], F64), RK([3], F64), RK([3], F64, 0.5, 2)], opset=15)
    add("instancenorm_3d", "InstanceNormalization", [R([2, 3, 3, 4, 2]), RK([3]), RK([3])],
        attrs={"epsilon": 1e-4}, opset=6)
    add("instancenorm_1d", "InstanceNormalization", [R([2, 3, 7]), RK([3]), RK([3])], opset=6)
    for axis, shape in [(-1, [4]), (1, [3, 4]), (-2, [3, 4]), (0, [2, 3, 4])]:
        add("layernorm_axis%s" % str(axis).replace("-", "m"), "LayerNormalization",
            [R([2, 3, 4]), RK(shape), RK(shape)], attrs={"axis": axis, "epsilon": 1e-4}, opset=17)
    add("layernorm_nobias", "LayerNormalization", [R([2, 3, 4]), RK([4])], opset=17)
    add("layernorm_f64", "LayerNormalization", [R([2, 3, 4], F64), RK([4], F64), RK([4], F64)], opset=17)
    for size in (1, 3, 5):  # ORT takes odd sizes only
        add("lrn_size%d" % size, "LRN", [R([1, 6, 3, 3])],
            attrs={"size": size, "alpha": 0.001, "beta": 0.6, "bias": 1.5}, opset=13)
    add("mvn_axes_0_1", "MeanVarianceNormalization", [R([2, 3, 4, 2])], attrs={"axes": [0, 1]}, opset=13)
    add("mvn_axes_last", "MeanVarianceNormalization", [R([2, 3, 4, 2])], attrs={"axes": [3]}, opset=13)


# ---- matmul family -------------------------------------------------------------------------

def matmul():
    shapes = [("bcast_batch", [2, 1, 3, 4], [3, 4, 5]), ("vec_mat", [4], [2, 4, 3]),
              ("mat_vec", [2, 3, 4], [4]), ("vec_vec", [4], [4]), ("bcast_rhs2d", [2, 3, 3, 4], [4, 2])]
    for name, a, b in shapes:
        add("matmul_" + name, "MatMul", [R(a), R(b)], opset=13)
    for t in [F64, I32, I64, U32, U64, F16]:
        add("matmul_%s" % SHORT[t], "MatMul", [R([2, 3, 4], t, 0, 5), R([4, 2], t, 0, 5)], opset=13)
    forms = [("bij,bjk->bik", [[2, 3, 4], [2, 4, 5]]), ("ij->ji", [[3, 4]]), ("ii->i", [[4, 4]]),
             ("i,i->", [[5], [5]]), ("bhqd,bhkd->bhqk", [[1, 2, 3, 4], [1, 2, 5, 4]]),
             ("...ij,...jk->...ik", [[2, 3, 4], [2, 4, 2]]), ("ij,jk", [[3, 4], [4, 2]]),
             ("bij->bji", [[2, 3, 4]]), ("ij,ij->ij", [[3, 4], [3, 4]]), ("i,j->ij", [[3], [4]]),
             ("bik,bjk->bij", [[2, 3, 4], [2, 5, 4]]), ("ijk->", [[2, 3, 4]])]
    for eq, shapes in forms:
        name = re.sub(r"[^a-z]+", "_", eq.replace("->", "_to_").replace("...", "ell")).strip("_")
        add("einsum_" + name, "Einsum", [R(s) for s in shapes], attrs={"equation": eq}, opset=12)
    add("einsum_f64_bij_bjk", "Einsum", [R([2, 3, 4], F64), R([2, 4, 2], F64)],
        attrs={"equation": "bij,bjk->bik"}, opset=12)
    add("gemm_transab_bcast_c", "Gemm", [R([4, 3]), R([5, 4]), RK([5])],
        attrs={"transA": 1, "transB": 1, "alpha": 0.5, "beta": 2.0}, opset=13)
    add("gemm_f64", "Gemm", [R([3, 4], F64), R([4, 5], F64), RK([1, 5], F64)], opset=13)


# ---- tensor movement -----------------------------------------------------------------------

def tensor():
    x = R([3, 4, 5])
    add("gather_neg_indices_axis1", "Gather", [x, K(np.array([[-1, 0], [2, -3]], I64))], attrs={"axis": 1})
    add("gather_i32_indices_axism1", "Gather", [x, K(np.array([4, -5, 1], I32))], attrs={"axis": -1})
    add("gather_scalar_index", "Gather", [x, K(np.array(-2, I64))], attrs={"axis": 0})
    for t in [I8, U16, F64, BOOL]:
        add("gather_%s" % SHORT[t], "Gather", [R([3, 4], t), K(np.array([2, 0, 1], I64))], attrs={"axis": 0})
    add("gatherelements_neg_axis", "GatherElements", [x, K(np.array(
        np.random.default_rng(1).integers(-5, 5, [3, 4, 2]), I64))], attrs={"axis": -1})
    add("gathernd_batch_dims1", "GatherND", [R([2, 3, 4]), K(np.array([[[0, 1], [2, 3]], [[1, 0], [2, 2]]], I64))],
        attrs={"batch_dims": 1})
    add("gathernd_neg", "GatherND", [R([3, 4]), K(np.array([[-1, 0], [0, -2]], I64))])
    add("gathernd_slices", "GatherND", [R([3, 4, 2]), K(np.array([[1], [-1]], I64))])
    upd = R([2, 4])
    for red, opset in [("none", 16), ("add", 16), ("mul", 16), ("max", 18), ("min", 18)]:
        add("scatterelements_%s" % red, "ScatterElements",
            [R([3, 4]), K(np.array([[1, -1, 0, 2], [1, 0, 0, 1]], I64)), upd],
            attrs={"axis": 0, "reduction": red}, opset=opset)
        add("scatternd_%s" % red, "ScatterND",
            [R([4, 3]), K(np.array([[1], [-1], [1]], I64)) if red != "none" else K(np.array([[1], [-1]], I64)),
             R([3, 3]) if red != "none" else R([2, 3])],
            attrs={"reduction": red}, opset=opset)
    add("scatterelements_axism1_i32", "ScatterElements",
        [R([3, 4], I32), K(np.array([[3, -4], [0, 1], [2, 2]], I64)), R([3, 2], I32)], attrs={"axis": -1})
    add("scatter_op9", "Scatter", [R([3, 4]), K(np.array([[1, 0, 2, 0]], I64)), R([1, 4])],
        attrs={"axis": 0}, opset=9)
    for name, starts, ends, axes, steps in [
            ("neg_step", [-1, 3], [-5, 0], [1, 2], [-1, -2]),
            ("clamp_out_of_range", [-100, 1], [100, 1000], [0, 2], [2, 1]),
            ("no_axes", [1, 0, -3], [3, -1, 5], None, None),
            ("neg_axes_step3", [0], [5], [-1], [3]),
            ("neg_step_to_start", [4], [-1000], [2], [-2])]:
        ins = [R([3, 4, 5]), K(np.array(starts, I64)), K(np.array(ends, I64))]
        ins += [K(np.array(axes, I64)) if axes is not None else None]
        ins += [K(np.array(steps, I64)) if steps is not None else None]
        while ins[-1] is None:
            ins.pop()
        add("slice_" + name, "Slice", ins)
    for mode in ["constant", "reflect", "edge", "wrap"]:
        for t in [F32, I32, U8, F64]:
            pads = [1, -1, 2, 0, 2, 1] if mode != "reflect" else [1, -1, 2, 0, 2, 1]
            ins = [R([3, 4, 5], t), K(np.array(pads, I64))]
            if mode == "constant":
                ins.append(K(np.array(7, t)))
            add("pad_%s_%s_negpads" % (mode, SHORT[t]), "Pad", ins, attrs={"mode": mode},
                opset=19 if mode == "wrap" else 13)
        add("pad_%s_axes" % mode, "Pad", [R([3, 4, 5]), K(np.array([2, -1, 1, 1], I64)), None,
                                          K(np.array([-1, 0], I64))], attrs={"mode": mode}, opset=19)
    for reps in ([2, 1, 3], [1, 3, 1]):
        add("tile_%s" % "x".join(map(str, reps)), "Tile", [R([2, 3, 2]), K(np.array(reps, I64))])
    add("tile_i64", "Tile", [R([2, 3], I64), K(np.array([2, 2], I64))])
    add("expand_rank_up", "Expand", [R([3, 1]), K(np.array([2, 1, 4], I64))])
    add("expand_smaller_shape", "Expand", [R([2, 1, 4]), K(np.array([3, 1], I64))])
    add("expand_bool", "Expand", [R([1, 4], BOOL), K(np.array([3, 4], I64))])
    add("split_input_uneven", "Split", [R([7, 3]), K(np.array([2, 5], I64))], attrs={"axis": 0}, outs=2)
    add("split_num_outputs_uneven", "Split", [R([3, 7])], attrs={"axis": -1, "num_outputs": 3}, opset=18, outs=3)
    add("split_equal_i8", "Split", [R([2, 6], I8)], attrs={"axis": 1}, outs=3)
    add("concat_neg_axis_3in", "Concat", [R([2, 3, 1]), R([2, 3, 4]), R([2, 3, 2])], attrs={"axis": -1})
    add("concat_u16_axis0", "Concat", [R([1, 3], U16), R([2, 3], U16)], attrs={"axis": 0})
    for perm in ([0, 2, 1, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 0, 1]):
        shape = [2, 3, 4, 5][:len(perm)]
        add("transpose_%s" % "".join(map(str, perm)), "Transpose", [R(shape)], attrs={"perm": perm})
    add("transpose_5d", "Transpose", [R([2, 1, 3, 2, 2])], attrs={"perm": [4, 2, 0, 3, 1]})
    add("transpose_f16", "Transpose", [R([2, 3, 4], F16)], attrs={"perm": [2, 0, 1]})
    add("reshape_zero_neg1", "Reshape", [R([2, 3, 4]), K(np.array([0, -1, 2], I64))])
    add("reshape_allowzero", "Reshape", [R([2, 0, 4]), K(np.array([0, 4], I64))], attrs={"allowzero": 1},
        opset=14)
    for axis in (0, -1, 2):
        add("flatten_axis%s" % str(axis).replace("-", "m"), "Flatten", [R([2, 3, 4])], attrs={"axis": axis})
    add("squeeze_neg_axes", "Squeeze", [R([1, 3, 1, 4]), K(np.array([-2, 0], I64))])
    add("squeeze_all", "Squeeze", [R([1, 3, 1, 4])])
    add("unsqueeze_neg_axes", "Unsqueeze", [R([3, 4]), K(np.array([-1, 0, -3], I64))])
    for mode in ["DCR", "CRD"]:
        add("depthtospace_%s" % mode.lower(), "DepthToSpace", [R([1, 8, 2, 3])],
            attrs={"blocksize": 2, "mode": mode})
    add("spacetodepth_b3", "SpaceToDepth", [R([1, 2, 6, 3])], attrs={"blocksize": 3})
    for upper in (0, 1):
        for k in (-2, 1, 5):
            add("trilu_%s_k%s" % ("upper" if upper else "lower", str(k).replace("-", "m")), "Trilu",
                [R([2, 4, 5]), K(np.array(k, I64))], attrs={"upper": upper}, opset=14)
    add("trilu_i32_nok", "Trilu", [R([3, 3], I32)], opset=14)
    for excl, rev in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        for t, axis in [(F32, -1), (I32, 1), (I64, 0), (F64, -2)]:
            add("cumsum_%s_axis%s_excl%d_rev%d" % (SHORT[t], str(axis).replace("-", "m"), excl, rev),
                "CumSum", [R([3, 4], t), K(np.array(axis, I32))], attrs={"exclusive": excl, "reverse": rev},
                opset=14)
    add("onehot_neg_indices", "OneHot", [K(np.array([[1, -1], [0, -4]], I64)), K(np.array(5, I64)),
                                         K(np.array([0, 3], F32))], attrs={"axis": 1}, opset=11)
    add("onehot_axis0_i32", "OneHot", [R([3], I32, -3, 2), K(np.array([4], I32)), K(np.array([-1, 1], I32))],
        attrs={"axis": 0}, opset=11)
    add("onehot_float_indices", "OneHot", [R([2, 2], F32, -3, 3), K(np.array(3, F32)), K(np.array([0, 1], I64))],
        opset=11)
    for t, start, limit, delta in [(F32, 1.5, -2.0, -0.5), (I32, -3, 10, 4), (I64, 10, 2, -3),
                                   (F64, 0.0, 1.0, 0.3), (I16, 0, 5, 1)]:
        add("range_%s" % SHORT[t], "Range", [K(np.array(start, t)), K(np.array(limit, t)), K(np.array(delta, t))],
            opset=11)
    # sorted=0 leaves the order unspecified (ORT's differs from glowc's): not compared.
    for axis, largest, srt, t in [(-1, 1, 1, F32), (0, 0, 1, F32), (1, 1, 1, I64), (1, 0, 1, F64),
                                  (-2, 1, 1, I32), (2, 0, 1, F32)]:
        add("topk_axis%s_%s_%s" % (str(axis).replace("-", "m"), "largest" if largest else "smallest",
                                   SHORT[t]), "TopK",
            [lambda rng, t=t: In(rng.permutation(3 * 4 * 5).reshape(3, 4, 5).astype(t)),
             K(np.array([2], I64))], attrs={"axis": axis, "largest": largest, "sorted": srt}, opset=11, outs=2)

    # TfIdfVectorizer: the node tests give TF only, without weights.
    pool = dict(ngram_counts=[0, 3], ngram_indexes=[0, 1, 2, 3, 4], pool_int64s=[2, 3, 5, 2, 3, 5, 5])
    for mode, weights in [("IDF", None), ("TFIDF", [0.5, 2.0, 1.5, 3.0, 0.25]), ("IDF", [1.0, 0.5, 2.0, 4.0, 8.0])]:
        attrs = dict(mode=mode, min_gram_length=1, max_gram_length=2, max_skip_count=2, **pool)
        if weights:
            attrs["weights"] = weights
        add("tfidf_%s%s" % (mode.lower(), "_weights" if weights else ""), "TfIdfVectorizer",
            [R([3, 12], I64, 1, 6)], attrs=attrs, opset=9, out_types=[F32])
    add("tfidf_tf_i32_rows", "TfIdfVectorizer", [R([16], I32, 1, 6)],
        attrs=dict(mode="TF", min_gram_length=2, max_gram_length=2, max_skip_count=1, **pool), opset=9,
        out_types=[F32])


def resize():
    x = R([1, 2, 4, 5])
    # Scales that put no source coordinate exactly halfway (ORT computes them in float, the ONNX
    # reference in double: a tie can round either way). align_corners takes sizes: with scales,
    # ORT divides by the integer output length - 1, ONNX (its reference and node tests, and
    # glowc) by scale * input length - 1.
    for cm in ["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"]:
        for nm in ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]:
            size = [None, K(np.array([1, 2, 6, 3], I64))] if cm == "align_corners" else [K(np.array([1, 1, 1.7, 0.7], F32))]
            add("resize_nearest_%s_%s" % (cm, nm), "Resize", [x, None] + size,
                attrs={"mode": "nearest", "coordinate_transformation_mode": cm, "nearest_mode": nm}, opset=13)
    for mode in ["linear", "cubic"]:
        for cm in ["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"]:
            for scales, sizes in (([1, 1, 1.5, 2.3], [1, 2, 6, 11]), ([1, 1, 0.6, 0.5], [1, 2, 2, 2])):
                size = [None, K(np.array(sizes, I64))] if cm == "align_corners" else [K(np.array(scales, F32))]
                add("resize_%s_%s_%s" % (mode, cm, "up" if scales[2] > 1 else "down"), "Resize",
                    [x, None] + size, attrs={"mode": mode, "coordinate_transformation_mode": cm}, opset=13)
        add("resize_%s_tf_crop_and_resize" % mode, "Resize",
            [x, K(np.array([0, 0, 0.2, 0.1, 1, 1, 0.9, 0.8], F32)), None, K(np.array([1, 2, 5, 3], I64))],
            attrs={"mode": mode, "coordinate_transformation_mode": "tf_crop_and_resize",
                   "extrapolation_value": -1.0}, opset=13)
        add("resize_%s_sizes" % mode, "Resize", [x, None, None, K(np.array([1, 2, 7, 3], I64))],
            attrs={"mode": mode}, opset=13)
    for a, excl in [(-0.5, 0), (-0.75, 1), (-0.5, 1)]:
        add("resize_cubic_a%s_excl%d" % (str(a).replace("-0.", "m"), excl), "Resize",
            [x, None, K(np.array([1, 1, 1.6, 0.7], F32))],
            attrs={"mode": "cubic", "cubic_coeff_a": a, "exclude_outside": excl}, opset=13)
    add("resize_linear_3d_trilinear", "Resize", [R([1, 2, 3, 4, 3]), None, K(np.array([1, 1, 2, 1.5, 0.7], F32))],
        attrs={"mode": "linear"}, opset=13)
    add("resize_nearest_3d", "Resize", [R([1, 2, 3, 4, 3]), None, K(np.array([1, 1, 2, 1.5, 0.7], F32))],
        attrs={"mode": "nearest"}, opset=13)
    add("resize_linear_2d_input", "Resize", [R([4, 5]), None, K(np.array([1.5, 2], F32))],
        attrs={"mode": "linear"}, opset=13)
    add("resize_nearest_1d_on_3d", "Resize", [R([1, 2, 5]), None, K(np.array([1, 1, 2.5], F32))],
        attrs={"mode": "nearest"}, opset=13)
    add("resize_nearest_u8", "Resize", [R([1, 2, 4, 5], U8), None, K(np.array([1, 1, 2, 1.5], F32))],
        attrs={"mode": "nearest"}, opset=13)
    add("resize_linear_i8", "Resize", [R([1, 2, 4, 5], I8), None, K(np.array([1, 1, 2, 1.5], F32))],
        attrs={"mode": "linear"}, opset=13)
    add("resize_op18_axes_sizes", "Resize", [x, None, None, K(np.array([7, 3], I64))],
        attrs={"mode": "linear", "axes": [2, 3]}, opset=18)
    for policy in ["not_larger", "not_smaller"]:
        add("resize_op18_keep_aspect_%s" % policy, "Resize", [x, None, None, K(np.array([1, 2, 8, 7], I64))],
            attrs={"mode": "nearest", "keep_aspect_ratio_policy": policy}, opset=18)
    add("resize_op18_keep_aspect_axes_not_smaller", "Resize", [x, None, None, K(np.array([6, 9], I64))],
        attrs={"mode": "linear", "axes": [2, 3], "keep_aspect_ratio_policy": "not_smaller"}, opset=18)
    add("resize_op18_antialias_linear_down", "Resize", [R([1, 2, 8, 9]), None, K(np.array([1, 1, 0.5, 0.4], F32))],
        attrs={"mode": "linear", "antialias": 1}, opset=18)
    add("resize_op18_antialias_cubic_down", "Resize", [R([1, 2, 8, 9]), None, K(np.array([1, 1, 0.5, 0.4], F32))],
        attrs={"mode": "cubic", "antialias": 1}, opset=18)
    add("resize_op11_linear_scales", "Resize", [x, K(np.array([], F32)), K(np.array([1, 1, 2, 1.5], F32))],
        attrs={"mode": "linear"}, opset=11)
    add("upsample_nearest_op9", "Upsample", [x, K(np.array([1, 1, 2, 3], F32))], attrs={"mode": "nearest"},
        opset=9)
    add("upsample_linear_op9", "Upsample", [x, K(np.array([1, 1, 2, 1.5], F32))], attrs={"mode": "linear"},
        opset=9)


def quant():
    x = R([2, 3, 4], F32, -3, 3)
    for t in [U8, I8]:
        zp = 10 if t == U8 else -3
        add("quantizelinear_%s_per_axis" % SHORT[t], "QuantizeLinear",
            [x, K(np.array([0.02, 0.05, 0.1], F32)), K(np.array([zp, 0, zp], t))], attrs={"axis": 1})
        add("quantizelinear_%s_no_zp" % SHORT[t], "QuantizeLinear", [x, K(np.array(0.03, F32))]
            if t == U8 else [x, K(np.array(0.03, F32)), K(np.array(0, t))])
        add("dequantizelinear_%s_per_axis" % SHORT[t], "DequantizeLinear",
            [R([2, 3, 4], t, 0 if t == U8 else -128, 255 if t == U8 else 127),
             K(np.array([0.02, 0.05, 0.1, 0.2], F32)), K(np.array([zp, 0, zp, 1], t))], attrs={"axis": -1})
    add("dequantizelinear_i32", "DequantizeLinear", [R([3, 4], I32, -1000, 1000), K(np.array(0.01, F32))])
    add("dynamicquantizelinear_mixed", "DynamicQuantizeLinear", [R([3, 5], F32, -2, 5)], opset=11, outs=3)
    add("dynamicquantizelinear_positive", "DynamicQuantizeLinear", [R([2, 4], F32, 0.5, 4)], opset=11, outs=3)
    for ta, tb in [(U8, U8), (U8, I8), (I8, I8)]:
        def a(rng, ta=ta):
            return In(rand([2, 3, 4], ta, 0 if ta == U8 else -128, 255 if ta == U8 else 127, rng))
        bk = RK([4, 5], tb, 0 if tb == U8 else -128, 255 if tb == U8 else 127)
        add("matmulinteger_%s_%s_zp" % (SHORT[ta], SHORT[tb]), "MatMulInteger",
            [a, bk, K(np.array(7 if ta == U8 else -2, ta)), K(np.array([3, 0, 1, 9, 2] if tb == U8 else
                                                                     [-3, 0, 1, 9, 2], tb))], opset=10)
    add("matmulinteger_no_zp", "MatMulInteger", [R([3, 4], U8, 0, 255), RK([4, 2], U8, 0, 255)], opset=10)
    for name, attrs in [("basic", {}), ("pads_stride", {"pads": [1, 0, 1, 2], "strides": [2, 1]}),
                        ("group_dil", {"group": 2, "dilations": [2, 1]})]:
        ws = [4, 2 if name == "group_dil" else 4, 2, 3]
        add("convinteger_%s" % name, "ConvInteger",
            [R([1, 4, 6, 7], U8, 0, 255), RK(ws, U8, 0, 255), K(np.array(100, U8)), K(np.array(5, U8))],
            attrs=attrs, opset=10)
    for t in [U8, I8]:
        lo, hi = (0, 255) if t == U8 else (-128, 127)
        z = (lambda v: K(np.array(v, t)))
        add("qlinearmatmul_%s" % SHORT[t], "QLinearMatMul",
            [R([2, 3, 4], t, lo, hi), K(np.array(0.02, F32)), z(3), RK([4, 5], t, lo, hi), K(np.array(0.01, F32)),
             z(-1 if t == I8 else 2), K(np.array(0.05, F32)), z(5)], opset=10)
        add("qlinearconv_%s_per_channel" % SHORT[t], "QLinearConv",
            [R([1, 2, 5, 6], t, lo, hi), K(np.array(0.02, F32)), z(3), RK([3, 2, 3, 3], I8 if t == I8 else U8, lo, hi),
             K(np.array([0.01, 0.02, 0.005], F32)), K(np.array([0, 0, 0], I8 if t == I8 else U8)),
             K(np.array(0.5, F32)), z(5), RK([3], I32, -100, 100)], attrs={"pads": [1, 0, 1, 1], "strides": [1, 2]},
            opset=10)
        # The band path (qconv.c's qconv_rows) requantizes two rows of 32 at a time where the CPU
        # packs them (x86_64/qdot.h): 20 output channels (a last tile of 4), per-channel scales;
        # y_scale 0.002 saturates many outputs at both ends, 0.2 few
        # A 1x1 conv with unit strides and no pads packs its band as one run across rows: rows of 14
        # (no whole vector in a row) with 6 channels (a half-empty last quad), and 60 rows of 30 in
        # several bands. Rows pack 16 columns at a time, their ends too where the reads stay in X:
        # stride 2 on rows of 37, and rows of 14 (one vector, 2 lanes of padding)
        for name, xs, m, kk, attrs, ys in [("rows_1x1_sat", [1, 8, 6, 40], 20, 1, {}, 0.002),
                                           ("rows_3x3", [1, 8, 6, 40], 20, 3, {"pads": [1, 1, 1, 1]}, 0.2),
                                           ("rows_1x1_flat14", [1, 6, 9, 14], 20, 1, {}, 0.2),
                                           ("rows_1x1_bands", [1, 12, 60, 30], 20, 1, {}, 0.2),
                                           ("rows_3x3_s2", [1, 8, 9, 37], 20, 3, {"pads": [1, 1, 1, 1],
                                                                                "strides": [2, 2]}, 0.2),
                                           ("rows_3x3_14", [1, 12, 14, 14], 20, 3, {"pads": [1, 1, 1, 1]}, 0.2)]:
            wt = I8 if t == I8 else U8
            add("qlinearconv_%s_%s" % (name, SHORT[t]), "QLinearConv",
                [R(xs, t, lo, hi), K(np.array(0.02, F32)), z(3), RK([m, xs[1], kk, kk], wt, lo, hi),
                 K(np.linspace(0.005, 0.02, m).astype(F32)), K(np.zeros(m, wt) if t == I8 else np.full(m, 120, wt)),
                 K(np.array(ys, F32)), z(5), RK([m], I32, -3000, 3000)], attrs=attrs, opset=10)
        # Depthwise, 16 channels to a vector (kernels/qconv-dw16.h): a last block of 4 channels and
        # 5x5 taps on 7 x 7; batch 2 at stride 2 with asymmetric pads; 3x3 on 40 x 14 (two
        # bands, the widest rows it takes); per-channel weight scales
        wt = I8 if t == I8 else U8
        # Rows wider than 28 take the quad-row path (kernels/qconv-quads.h), 64 outputs at a time
        # where registers are 64 bytes: exactly 64, 64 and a tail of 6, and at stride 2 64 and 1;
        # rows of 260 are padded 14 at a time (3 chunks of a band's 32 input rows).
        y3 = 0.3 if t == U8 else 0.05
        for name, xs, g, kk, attrs, ys in [("dw16_5x5", [1, 20, 7, 7], 20, 5, {"pads": [2, 2, 2, 2]},
                                            0.5 if t == U8 else 0.1),
                                           ("dw16_stride_asym", [2, 32, 13, 12], 32, 3,
                                            {"pads": [1, 0, 0, 1], "strides": [2, 2]}, y3),
                                           ("dw16_3x3_14", [1, 24, 40, 14], 24, 3, {"pads": [1, 1, 1, 1]}, y3),
                                           ("dwrow_64", [1, 16, 4, 64], 16, 3, {"pads": [1, 1, 1, 1]}, y3),
                                           ("dwrow_70", [1, 16, 5, 70], 16, 3, {"pads": [1, 1, 1, 1]}, y3),
                                           ("dwrow_s2", [1, 16, 9, 129], 16, 3, {"pads": [1, 1, 1, 1], "strides": [2, 2]},
                                            y3),
                                           ("dwrow_chunks", [1, 16, 30, 260], 16, 3, {"pads": [1, 1, 1, 1]}, y3)]:
            add("qlinearconv_%s_%s" % (name, SHORT[t]), "QLinearConv",
                [R(xs, t, lo, hi), K(np.array(0.02, F32)), z(3), RK([g, 1, kk, kk], wt, lo, hi),
                 K(np.linspace(0.005, 0.02, g).astype(F32)), K(np.zeros(g, wt) if t == I8 else np.full(g, 120, wt)),
                 K(np.array(ys, F32)), z(5), RK([g], I32, -3000, 3000)], attrs=dict(attrs, group=g), opset=10)


def add_chain(name, nodes, inputs, opset=13):
    """Registers a case of several nodes: nodes as (op, inputs, output, attrs), the last
    output "y"; inputs: name -> In(array) or K(array), or a function of the case's rng."""
    if name in CASES:
        raise SystemExit("gen-coverage: duplicate case " + name)

    def build():
        graph_inputs, inits, feeds = make_inputs(list(inputs.items()), rng_for(name))
        made = [helper.make_node(op, ins, [out], **attrs) for op, ins, out, attrs in nodes]
        graph = helper.make_graph(made, name, graph_inputs, [helper.make_tensor_value_info("y", 0, None)], inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="gen-coverage")
        model.ir_version = 8
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        del model.graph.output[:]
        model.graph.output.extend(inferred.graph.output)
        return model.SerializeToString(), feeds

    CASES[name] = build


def fused():
    """Conv followed by what the compiler folds into the conv's epilogue
    (compiler/passes/fuse-epilogue.c), on each float32 conv kernel: 3x3 (the tiled
    kernel), 1x1 (a matrix product), depthwise (the plane kernel and, 16 channels to a vector,
    kernels/conv-dw.c)."""
    acts = {
        "relu": [("Relu", ["c"], "y", {})],
        "leakyrelu": [("LeakyRelu", ["c"], "y", {"alpha": 0.3})],
        "hardsigmoid": [("HardSigmoid", ["c"], "y", {"alpha": 0.3, "beta": 0.4})],
        "hardswish": [("HardSwish", ["c"], "y", {})],
        "sigmoid": [("Sigmoid", ["c"], "y", {})],
        "swish": [("Sigmoid", ["c"], "s", {}), ("Mul", ["c", "s"], "y", {})],
        "clip": [("Clip", ["c", "lo", "hi"], "y", {})],
        "add_relu": [("Add", ["c", "r"], "a", {}), ("Relu", ["a"], "y", {})],
        "add": [("Add", ["r", "c"], "y", {})],
    }
    kinds = {  # input shape, weight shape, attrs
        "3x3": ([1, 8, 9, 10], [24, 8, 3, 3], {"pads": [1, 1, 1, 1]}),
        "1x1": ([1, 16, 7, 9], [20, 16, 1, 1], {}),
        "dw": ([1, 12, 9, 11], [12, 1, 3, 3], {"group": 12, "pads": [1, 1, 1, 1]}),
        "dw16": ([1, 24, 6, 7], [24, 1, 5, 5], {"group": 24, "pads": [2, 2, 2, 2]}),
    }
    for kind, (xs, ws, attrs) in kinds.items():
        ys = [xs[0], ws[0], xs[2], xs[3]]
        for act, tail in acts.items():
            inputs = {"x": R(xs), "w": RK(ws), "b": RK([ws[0]])}
            if act.startswith("add"):
                inputs["r"] = R(ys)
            if act == "clip":
                inputs["lo"] = K(np.array(-0.5, np.float32))
                inputs["hi"] = K(np.array(0.7, np.float32))
            add_chain("fused_%s_%s" % (kind, act), [("Conv", ["x", "w", "b"], "c", attrs)] + tail, inputs, opset=14)
    # opset 6 Clip: the bounds are attributes (ReLU6)
    add_chain("fused_dw_clip_opset6", [("Conv", ["x", "w"], "c", {"group": 4}),
                                       ("Clip", ["c"], "y", {"min": 0.0, "max": 6.0})],
              {"x": R([1, 4, 6, 6], lo=-8, hi=8), "w": RK([4, 1, 3, 3])}, opset=6)
    # The plane kernel's bands (a plane larger than its buffer): the epilogue per band
    add_chain("fused_dw_bands_add_relu", [("Conv", ["x", "w", "b"], "c", {"group": 5, "pads": [1, 1, 1, 1]}),
                                          ("Add", ["c", "r"], "a", {}), ("Relu", ["a"], "y", {})],
              {"x": R([1, 5, 120, 140]), "w": RK([5, 1, 3, 3]), "b": RK([5]), "r": R([1, 5, 120, 140])}, opset=14)
    # Not fused: the conv output is also used elsewhere (both uses must see it).
    add_chain("fused_not_shared", [("Conv", ["x", "w"], "c", {}), ("Relu", ["c"], "a", {}),
                                   ("Add", ["a", "c"], "y", {})],
              {"x": R([1, 3, 5, 5]), "w": RK([8, 3, 3, 3])})


def conv_pool():
    """Conv -> (Relu) -> MaxPool that passes/fuse-conv-pool.c runs as one step
    (kernels/conv-pool.c: the conv's rows through a ring, each pool row as soon as its rows
    are made): conv outputs of 1 MiB and more (the pass's threshold), pool windows with
    padding, ceil_mode, dilation, stride 1, rows of fewer than 16 outputs (one by one),
    output channels that do not fill a panel, two groups, two images; and, not fused, a
    conv output also used elsewhere."""
    relu = [("Relu", ["c"], "a", {})]
    cases = {  # name: x, w, conv attrs, relu?, pool attrs
        "s2_pads": ([1, 3, 259, 259], [16, 3, 3, 3], {"strides": [2, 2]}, True,
                    {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
        "ceil": ([1, 3, 130, 130], [16, 3, 3, 3], {"pads": [1, 1, 1, 1]}, True,
                 {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
        "dil_asym_s1": ([1, 3, 130, 131], [16, 3, 3, 3], {"pads": [1, 1, 1, 1]}, False,
                        {"kernel_shape": [2, 3], "dilations": [2, 2], "pads": [1, 1, 0, 1]}),
        "narrow_rows": ([1, 3, 1400, 14], [16, 3, 3, 3], {}, True, {"kernel_shape": [3, 3], "strides": [2, 2]}),
        "m24_nobias": ([1, 4, 130, 130], [24, 4, 3, 3], {"pads": [1, 1, 1, 1]}, True,
                       {"kernel_shape": [2, 2], "strides": [2, 2]}),
        "groups2": ([1, 4, 130, 130], [32, 2, 3, 3], {"pads": [1, 1, 1, 1], "group": 2}, True,
                    {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [0, 0, 1, 1]}),
        "batch2_7x7": ([2, 3, 262, 262], [16, 3, 7, 7], {"strides": [2, 2], "pads": [3, 3, 3, 3]}, True,
                       {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}),
    }
    for name, (xs, ws, ca, act, pa) in cases.items():
        nobias = name.endswith("nobias")
        inputs = {"x": R(xs), "w": RK(ws)}
        if not nobias:
            inputs["b"] = RK([ws[0]])
        conv = ("Conv", ["x", "w"] + ([] if nobias else ["b"]), "c", ca)
        add_chain("convpool_" + name, [conv] + (relu if act else []) + [("MaxPool", ["a" if act else "c"], "y", pa)],
                  inputs)
    # Not fused: the conv output is also used elsewhere (both uses must see it).
    add_chain("convpool_not_shared", [("Conv", ["x", "w"], "c", {"pads": [1, 1, 1, 1]}),
                                      ("MaxPool", ["c"], "p", {"kernel_shape": [2, 2], "strides": [2, 2]}),
                                      ("ReduceMax", ["c"], "q", {"axes": [2, 3]}), ("Add", ["p", "q"], "y", {})],
              {"x": R([1, 3, 130, 130]), "w": RK([16, 3, 3, 3])})


def lookup():
    """Quantized activations that the compiler folds into a 256-byte table (quant/fold-lookup.c,
    IntLookupTable): Q -> DQ -> activation -> Q -> DQ, inputs spanning every byte, 64 bytes at a time
    (x86_64/qdot.h: glow_q_lookup64) and a tail of 44."""
    for t, zp in ((U8, 128), (I8, 0)):
        for act, tail in (("sigmoid", [("Sigmoid", ["d"], "a", {})]),
                          ("tanh", [("Tanh", ["d"], "a", {})])):
            add_chain("lookup_%s_%s" % (act, SHORT[t]),
                      [("QuantizeLinear", ["x", "s", "z"], "q", {}), ("DequantizeLinear", ["q", "s", "z"], "d", {})]
                      + tail + [("QuantizeLinear", ["a", "so", "zo"], "qo", {}),
                                ("DequantizeLinear", ["qo", "so", "zo"], "y", {})],
                      {"x": R([2, 3, 50], F32, -6.5, 6.5), "s": K(np.array(0.05, F32)), "z": K(np.array(zp, t)),
                       "so": K(np.array(1.0 / 128, F32)), "zo": K(np.array(zp, t))}, opset=13)


FAMILIES = [elementwise, unary, cast, reductions, conv, pool, norms, matmul, tensor, resize, quant, fused, conv_pool,
            lookup]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("--filter", default="", help="only cases whose name matches this regex")
    ap.add_argument("--list", action="store_true", help="print the case names and stop")
    args = ap.parse_args()
    for family in FAMILIES:
        family()
    names = [n for n in sorted(CASES) if re.search(args.filter, n)]
    if args.list:
        print("\n".join(names))
        return
    os.makedirs(args.out_dir, exist_ok=True)
    dirs = []
    for name in names:
        case = os.path.join(args.out_dir, name)
        shutil.rmtree(case, ignore_errors=True)
        model, feeds = CASES[name]()
        onnxref.write_case(case, model, feeds)
        dirs.append(case)
    onnxref.run_ort(dirs)
    print("gen-coverage: %d cases in %s" % (len(dirs), args.out_dir))


if __name__ == "__main__":
    main()
