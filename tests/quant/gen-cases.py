#!/usr/bin/python3
"""Generates test cases for the int8 ops on random data, in the ONNX backend tests' layout.

    /usr/bin/python3 tests/quant/gen-cases.py <out_dir>

Writes <out_dir>/<case>/model.onnx and test_data_set_0/{input,output}_N.pb for QLinearConv,
QLinearMatMul, QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, int8 MaxPool and com.microsoft's
QLinearAdd and QLinearMul (plain and broadcast), QLinearConcat, QLinearGlobalAveragePool and
QLinearAveragePool (pads, ceil_mode, count_include_pad, auto_pad, 1-D to 3-D): non-trivial zero
points, per-channel scales and zero points, every int8/uint8 combination, groups, strides,
dilations, padding, channel counts and reduction lengths that are not multiples of 4 or 16.
Weights are initializers (constants, as in real models), so the kernels' fast paths run.

The expected outputs come from numpy, independently of glowc, with the arithmetic that ONNX
Runtime and glowc specify (compiler/ops/quant-util.h): exact int64 sums, then in float32
m = (x_scale * w_scale) / y_scale, v = float32(acc) * m, clamp, round half to even, + zero
point. So bundles and the reference interpreter must match them exactly (run-conformance.py
compares integers exactly). Two runs write the same bytes.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F32 = np.float32
RNG = np.random.default_rng(5)
ONNX_DT = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8, np.int16: TensorProto.INT16,
           np.int32: TensorProto.INT32, np.float32: TensorProto.FLOAT}


def qrange(dt):
    return {np.int8: (-128, 127), np.uint8: (0, 255), np.int16: (-32768, 32767)}[np.dtype(dt).type]


def rand_q(dt, shape):
    lo, hi = qrange(dt)
    return RNG.integers(lo, hi + 1, size=shape).astype(dt)


def requant(acc, mult, zp, dt):
    """saturate(round_half_even(float32(acc) * mult) + zp), all in float32; acc is the int32 sum
    (int64 for int16, whose sums overflow int32)."""
    lo, hi = qrange(dt)
    v = (acc.astype(np.int64) if dt == np.int16 else acc.astype(np.int32)).astype(F32) * mult.astype(F32)
    v = np.clip(v, F32(lo - zp), F32(hi - zp))
    return (np.rint(v).astype(np.int32) + zp).astype(dt)


def save(out, name, nodes, inputs, outputs, inits, feeds, results, opset, ms=False):
    """A one-graph model with inputs `inputs` ((name, array) pairs give dtype and shape); `ms` also
    imports com.microsoft (ONNX Runtime's contrib ops)."""
    vi = lambda n, a: helper.make_tensor_value_info(n, ONNX_DT[a.dtype.type], list(a.shape))
    graph = helper.make_graph(nodes, name, [vi(n, a) for n, a in inputs], [vi(n, a) for n, a in outputs],
                              [numpy_helper.from_array(a, n) for n, a in inits])
    opsets = [helper.make_opsetid("", opset)] + ([helper.make_opsetid("com.microsoft", 1)] if ms else [])
    model = helper.make_model(graph, producer_name="gen-cases", opset_imports=opsets)
    model.ir_version = 7
    d = os.path.join(out, name, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(out, name, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for kind, arrs in (("input", feeds), ("output", results)):
        for i, (n, a) in enumerate(arrs):
            with open(os.path.join(d, "%s_%d.pb" % (kind, i)), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())


def conv_acc(x, w, strides, pads, dil, group):
    """Exact int64 sums of a grouped 2-D convolution of zero-point-free x and w (pads are zeros)."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.zeros((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]), np.int64)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x
    oh = (xp.shape[2] - dil[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (xp.shape[3] - dil[1] * (kw - 1) - 1) // strides[1] + 1
    acc = np.zeros((n, m, oh, ow), np.int64)
    mg = m // group
    for g in range(group):
        for i in range(kh):
            for j in range(kw):
                r0, c0 = i * dil[0], j * dil[1]
                patch = xp[:, g * cg:(g + 1) * cg, r0:r0 + strides[0] * (oh - 1) + 1:strides[0],
                           c0:c0 + strides[1] * (ow - 1) + 1:strides[1]]
                acc[:, g * mg:(g + 1) * mg] += np.einsum("nchw,mc->nmhw", patch, w[g * mg:(g + 1) * mg, :, i, j])
    return acc


def qconv_case(out, name, xdt, wdt, ydt, x_shape, m, kernel, strides=(1, 1), pads=(0, 0, 0, 0), dil=(1, 1),
               group=1, per_channel=True, wz_zero=True, bias=True):
    one_d = len(x_shape) == 3
    if one_d:  # N x C x W as N x C x 1 x W
        x_shape, kernel, strides, pads, dil = ((x_shape[0], x_shape[1], 1, x_shape[2]), (1, kernel[0]),
                                               (1, strides[0]), (0, pads[0], 0, pads[1]), (1, dil[0]))
    c = x_shape[1]
    x = rand_q(xdt, x_shape)
    w = rand_q(wdt, (m, c // group) + tuple(kernel))
    nz = m if per_channel else 1
    xs, ys = F32(RNG.uniform(0.002, 0.03)), F32(RNG.uniform(0.01, 0.2))
    ws = RNG.uniform(0.002, 0.02, size=nz).astype(F32)
    xz = rand_q(xdt, ())
    wz = np.zeros(nz, wdt) if wz_zero else rand_q(wdt, (nz,))
    yz = rand_q(ydt, ())
    b = RNG.integers(-20000, 20000, size=m).astype(np.int32)
    acc = conv_acc(x.astype(np.int64) - xz, w.astype(np.int64) - wz.astype(np.int64).reshape(-1, 1, 1, 1), strides,
                   pads, dil, group)
    if bias:
        acc += b.reshape(1, -1, 1, 1)
    if ydt == np.int16:  # int16 sums reach ~2^36: an output scale that keeps Y inside int16 mostly
        ys = F32(np.abs(acc).mean() * xs * ws.mean() / 8000)
    y = requant(acc, ((xs * ws) / ys).reshape(1, -1, 1, 1), int(yz), ydt)
    if one_d:
        x, w, y = x[:, :, 0, :], w[:, :, 0, :], y[:, :, 0, :]
        strides, pads, dil = strides[1:], (pads[1], pads[3]), dil[1:]
    inits = [("x_scale", np.array(xs)), ("x_zero_point", xz), ("w", w), ("w_scale", ws), ("w_zero_point", wz),
             ("y_scale", np.array(ys)), ("y_zero_point", yz)] + ([("B", b)] if bias else [])
    node = helper.make_node("QLinearConv", ["x"] + [n for n, _ in inits[:7]] + (["B"] if bias else []), ["y"],
                            strides=list(strides), pads=list(pads), dilations=list(dil), group=group)
    save(out, name, [node], [("x", x)], [("y", y)], inits, [("x", x)], [("y", y)], 10)


def qdq_conv_case(out, name, xdt, ydt, x_shape, m, kernel, pads, per_channel):
    """Pre-quantized ONNX in the QDQ form: DequantizeLinear(x) and DequantizeLinear(W) into a
    float Conv with a float bias, then QuantizeLinear. glowc folds it into the QLinearConv it
    stands for, so the expected output is QLinearConv's (bias = B / (x_scale w_scale), rounded)."""
    c = x_shape[1]
    x, w = rand_q(xdt, x_shape), rand_q(np.int8, (m, c) + tuple(kernel))
    nz = m if per_channel else 1
    xs, ys = F32(RNG.uniform(0.002, 0.03)), F32(RNG.uniform(0.01, 0.2))
    ws = RNG.uniform(0.002, 0.02, size=nz).astype(F32)
    xz, yz = rand_q(xdt, ()), rand_q(ydt, ())
    b = RNG.integers(-20000, 20000, size=m).astype(np.int32)
    bf = (b.astype(F32) * xs * np.broadcast_to(ws, (m,))).astype(F32)
    bq = np.rint(bf.astype(np.float64) / (np.float64(xs) * np.broadcast_to(ws, (m,)).astype(np.float64)))
    acc = conv_acc(x.astype(np.int64) - xz, w.astype(np.int64), (1, 1), pads, (1, 1), 1) + \
        bq.astype(np.int64).reshape(1, -1, 1, 1)
    y = requant(acc, ((xs * ws) / ys).reshape(1, -1, 1, 1), int(yz), ydt)
    inits = [("x_scale", np.array(xs)), ("x_zero_point", xz), ("w_q", w), ("w_scale", ws if per_channel else ws[0]),
             ("w_zero_point", np.zeros(nz, np.int8) if per_channel else np.int8(0)), ("B", bf),
             ("y_scale", np.array(ys)), ("y_zero_point", yz)]
    nodes = [helper.make_node("DequantizeLinear", ["x", "x_scale", "x_zero_point"], ["x_f"]),
             helper.make_node("DequantizeLinear", ["w_q", "w_scale", "w_zero_point"], ["w_f"], axis=0),
             helper.make_node("Conv", ["x_f", "w_f", "B"], ["y_f"], pads=list(pads)),
             helper.make_node("QuantizeLinear", ["y_f", "y_scale", "y_zero_point"], ["y"])]
    save(out, name, nodes, [("x", x)], [("y", y)], inits, [("x", x)], [("y", y)], 13)


def qdq_matmul_case(out, name, adt, ydt, a_shape, b_shape):
    """QDQ MatMul with a constant per-tensor int8 B: folded into QLinearMatMul."""
    a, b = rand_q(adt, a_shape), rand_q(np.int8, b_shape)
    as_, bs, ys = F32(RNG.uniform(0.002, 0.03)), F32(RNG.uniform(0.002, 0.02)), F32(RNG.uniform(0.05, 0.5))
    az, yz = rand_q(adt, ()), rand_q(ydt, ())
    acc = np.matmul(a.astype(np.int64) - az, b.astype(np.int64))
    y = requant(acc, np.array((as_ * bs) / ys), int(yz), ydt)
    inits = [("a_scale", np.array(as_)), ("a_zero_point", az), ("b_q", b), ("b_scale", np.array(bs)),
             ("b_zero_point", np.int8(0)), ("y_scale", np.array(ys)), ("y_zero_point", yz)]
    nodes = [helper.make_node("DequantizeLinear", ["a", "a_scale", "a_zero_point"], ["a_f"]),
             helper.make_node("DequantizeLinear", ["b_q", "b_scale", "b_zero_point"], ["b_f"]),
             helper.make_node("MatMul", ["a_f", "b_f"], ["y_f"]),
             helper.make_node("QuantizeLinear", ["y_f", "y_scale", "y_zero_point"], ["y"])]
    save(out, name, nodes, [("a", a)], [("y", y)], inits, [("a", a)], [("y", y)], 13)


def qmatmul_case(out, name, adt, bdt, ydt, a_shape, b_shape, b_const=True, per_col=True, bz_zero=True,
                 bias=False):
    """bias: glowc's 9th input, an int32 bias per column added to the sums (Gemm's C after the
    quantize pass; ONNX's QLinearMatMul has 8 inputs)."""
    a, b = rand_q(adt, a_shape), rand_q(bdt, b_shape)
    nb = b_shape[-1] if per_col else 1
    as_, ys = F32(RNG.uniform(0.002, 0.03)), F32(RNG.uniform(0.05, 0.5))
    bs = RNG.uniform(0.002, 0.02, size=nb).astype(F32)
    az = rand_q(adt, ())
    bz = np.zeros(nb, bdt) if bz_zero else rand_q(bdt, (nb,))
    yz = rand_q(ydt, ())
    acc = np.matmul(a.astype(np.int64) - az, b.astype(np.int64) - bz.astype(np.int64))
    if bias:  # drawn only here: the other cases keep their numbers
        amax = int(np.abs(acc).max())
        bv = RNG.integers(-3 * amax, 3 * amax + 1, size=b_shape[-1]).astype(np.int32)
        acc = acc + bv
    if ydt == np.int16:
        ys = F32(np.abs(acc).mean() * as_ * bs.mean() / 8000)
    y = requant(acc, (as_ * bs) / ys, int(yz), ydt)
    params = [("a_scale", np.array(as_)), ("a_zero_point", az), ("b", b), ("b_scale", bs), ("b_zero_point", bz),
              ("y_scale", np.array(ys)), ("y_zero_point", yz)] + ([("bias", bv)] if bias else [])
    node = helper.make_node("QLinearMatMul", ["a"] + [n for n, _ in params], ["y"])
    inits = [p for p in params if b_const or p[0] != "b"]
    inputs = [("a", a)] + ([] if b_const else [("b", b)])
    save(out, name, [node], inputs, [("y", y)], inits, inputs, [("y", y)], 10)


def quantize_case(out, name, ydt, shape, axis):
    n = shape[axis] if axis is not None else 1
    s = RNG.uniform(0.01, 0.1, size=n).astype(F32)
    z = rand_q(ydt, (n,))
    q = RNG.integers(-300, 300, size=shape)
    x = ((q + RNG.choice([0.5, 0.25, 0.0, 0.75], size=shape)) * 0.04).astype(F32)  # many ties
    bshape = [1] * len(shape)
    if axis is not None:
        bshape[axis] = n
    lo, hi = qrange(ydt)
    v = np.clip(x / s.reshape(bshape), F32(lo) - z.reshape(bshape), F32(hi) - z.reshape(bshape))
    y = (np.rint(v).astype(np.int32) + z.reshape(bshape)).astype(ydt)
    sa, za = (s, z) if axis is not None else (s.reshape(()), z.reshape(()))
    node = helper.make_node("QuantizeLinear", ["x", "y_scale", "y_zero_point"], ["y"],
                            **({"axis": axis} if axis is not None else {}))
    save(out, name, [node], [("x", x)], [("y", y)], [("y_scale", sa), ("y_zero_point", za)], [("x", x)], [("y", y)], 13)


def dequantize_case(out, name, xdt, shape, axis):
    n = shape[axis]
    s = RNG.uniform(0.01, 0.1, size=n).astype(F32)
    z = rand_q(xdt, (n,))
    x = rand_q(xdt, shape)
    bshape = [1] * len(shape)
    bshape[axis] = n
    y = (x.astype(np.int32) - z.reshape(bshape).astype(np.int32)).astype(F32) * s.reshape(bshape)
    node = helper.make_node("DequantizeLinear", ["x", "x_scale", "x_zero_point"], ["y"], axis=axis)
    save(out, name, [node], [("x", x)], [("y", y)], [("x_scale", s), ("x_zero_point", z)], [("x", x)], [("y", y)], 13)


def dynamic_case(out, name, shape):
    x = RNG.normal(0.3, 2.0, size=shape).astype(F32)
    lo, hi = min(F32(0), x.min()), max(F32(0), x.max())
    scale = F32((hi - lo) / F32(255))
    zp = int(np.rint(np.clip(F32(0) - lo / scale, F32(0), F32(255))))
    y = (np.rint(np.clip(x / scale, F32(-zp), F32(255 - zp))).astype(np.int32) + zp).astype(np.uint8)
    node = helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "y_scale", "y_zero_point"])
    outs = [("y", y), ("y_scale", np.array(scale, F32)), ("y_zero_point", np.array(zp, np.uint8))]
    save(out, name, [node], [("x", x)], outs, [], [("x", x)], outs, 11)


def maxpool_case(out, name, dt, x_shape, kernel, strides, pads):
    """MaxPool on int8 or uint8 directly, as quantized models run it."""
    x = rand_q(dt, x_shape)
    lo, _ = qrange(dt)
    n, c, h, w = x_shape
    xp = np.full((n, c, h + pads[0] + pads[2], w + pads[1] + pads[3]), lo, dt)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + w] = x
    oh, ow = (xp.shape[2] - kernel[0]) // strides[0] + 1, (xp.shape[3] - kernel[1]) // strides[1] + 1
    y = np.full((n, c, oh, ow), lo, dt)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r, c = slice(i, i + strides[0] * (oh - 1) + 1, strides[0]), slice(j, j + strides[1] * (ow - 1) + 1, strides[1])
            y = np.maximum(y, xp[:, :, r, c])
    node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=list(kernel), strides=list(strides), pads=list(pads))
    save(out, name, [node], [("x", x)], [("y", y)], [], [("x", x)], [("y", y)], 12)


def qbinary_case(out, name, op, dt, a_shape, b_shape, b_const=False, scales=None):
    """com.microsoft QLinearAdd or QLinearMul (numpy broadcasting) as ONNX Runtime computes them.
    QLinearAdd as its reference, in float32: c = saturate(rint((sa * (a - za) + sb * (b - zb)) / sc) + zc),
    the products not fused. QLinearMul as its x86 and Arm64 kernels: the exact integer product
    p = (a - za) * (b - zb), then in float32 c = saturate(rint(float32(p) * ((sa * sb) / sc) + zc))."""
    a, b = rand_q(dt, a_shape), rand_q(dt, b_shape)
    c_range = (0.02, 0.2) if op == "QLinearAdd" else (0.1, 0.5)
    sa, sb, sc = scales or (F32(RNG.uniform(0.01, 0.1)), F32(RNG.uniform(0.01, 0.1)), F32(RNG.uniform(*c_range)))
    za, zb, zc = rand_q(dt, ()), rand_q(dt, ()), rand_q(dt, ())
    lo, hi = qrange(dt)
    if op == "QLinearAdd":
        va = F32(sa) * (a.astype(np.int32) - int(za)).astype(F32)
        vb = F32(sb) * (b.astype(np.int32) - int(zb)).astype(F32)
        v = np.clip((va + vb) / F32(sc), F32(lo - int(zc)), F32(hi - int(zc)))
        c = (np.rint(v).astype(np.int32) + int(zc)).astype(dt)
    else:
        p = (a.astype(np.int32) - int(za)) * (b.astype(np.int32) - int(zb))
        v = (p.astype(F32) * (F32(F32(sa) * F32(sb)) / F32(sc))).astype(F32) + F32(int(zc))
        c = np.clip(np.rint(v), lo, hi).astype(dt)
    params = [("a_scale", np.array(sa, F32)), ("a_zero_point", za), ("b", b), ("b_scale", np.array(sb, F32)),
              ("b_zero_point", zb), ("c_scale", np.array(sc, F32)), ("c_zero_point", zc)]
    node = helper.make_node(op, ["a"] + [n for n, _ in params], ["c"], domain="com.microsoft")
    inits = [p for p in params if b_const or p[0] != "b"]
    inputs = [("a", a)] + ([] if b_const else [("b", b)])
    save(out, name, [node], inputs, [("c", c)], inits, inputs, [("c", c)], 13, ms=True)


def qgap_case(out, name, dt, x_shape, x_lo=None):
    """com.microsoft QLinearGlobalAveragePool (NCHW), as ONNX Runtime: the exact plane sums less
    x_zp * size, times m = x_scale / (y_scale * size) in float32, then requantized. x_lo: the
    smallest x (large ones make int16 sums that overflow int32)."""
    x = rand_q(dt, x_shape) if x_lo is None else RNG.integers(x_lo, qrange(dt)[1] + 1, size=x_shape).astype(dt)
    size = int(np.prod(x_shape[2:]))
    xs, ys = F32(RNG.uniform(0.01, 0.1)), F32(RNG.uniform(0.005, 0.05))
    xz, yz = rand_q(dt, ()), rand_q(dt, ())
    acc = x.astype(np.int64).reshape(x_shape[0], x_shape[1], -1).sum(axis=2) - int(xz) * size
    y = requant(acc, np.array(xs / (ys * F32(size)), F32), int(yz), dt).reshape(x_shape[:2] + (1,) * (len(x_shape) - 2))
    inits = [("x_scale", np.array(xs, F32)), ("x_zero_point", xz), ("y_scale", np.array(ys, F32)),
             ("y_zero_point", yz)]
    node = helper.make_node("QLinearGlobalAveragePool", ["x"] + [n for n, _ in inits], ["y"], channels_last=0,
                            domain="com.microsoft")
    save(out, name, [node], [("x", x)], [("y", y)], inits, [("x", x)], [("y", y)], 13, ms=True)


def int16_cases(out):
    """Int16 quantization's ops (-quantization-precision=Int16; glowc's extension of the QLinear
    ops and of QuantizeLinear/DequantizeLinear/MaxPool): int64 sums, int16 results."""
    i16 = np.int16
    qconv_case(out, "q16_conv_3x3", i16, i16, i16, (1, 8, 9, 11), 12, (3, 3), pads=(1, 1, 1, 1), wz_zero=False)
    qconv_case(out, "q16_conv_depthwise_stride2", i16, i16, i16, (2, 6, 10, 9), 6, (3, 3), (2, 2), (1, 1, 1, 1),
               group=6, per_channel=False, bias=False)
    qmatmul_case(out, "q16_matmul", i16, i16, i16, (9, 40), (40, 21), bz_zero=False)
    qmatmul_case(out, "q16_matmul_batch_input", i16, i16, i16, (2, 5, 16), (2, 16, 7), b_const=False)
    qmatmul_case(out, "q16_matmul_bias", i16, i16, i16, (3, 40), (40, 21), bias=True)
    quantize_case(out, "q16_quantize_axis1", i16, (2, 5, 7), 1)
    dequantize_case(out, "q16_dequantize_axis0", i16, (6, 10), 0)
    maxpool_case(out, "q16_maxpool_3x3_stride2", i16, (1, 5, 13, 17), (3, 3), (2, 2), (1, 1, 1, 1))  # short rows
    maxpool_case(out, "q16_maxpool_wide_rows", i16, (1, 3, 6, 70), (2, 3), (1, 2), (0, 1, 1, 0))  # 35 outputs a row
    qbinary_case(out, "q16_add_bcast", "QLinearAdd", i16, (2, 5, 4, 6), (5, 1, 6))
    qgap_case(out, "q16_gap_sum_over_int32", i16, (1, 2, 300, 300), x_lo=20000)


def qconcat_case(out, name, dt, shapes, axis, same=(), half=()):
    """com.microsoft QLinearConcat as ONNX Runtime computes it: every part requantized to Y's
    parameters, QuantizeLinear of the dequantized value in float32,
    y = saturate(rint((x_scale * (x - x_zp)) / y_scale) + y_zp); parts listed in `same` take Y's
    scale and zero point (ONNX Runtime copies them), parts in `half` half its scale (ties)."""
    lo, hi = qrange(dt)
    ys, yz = F32(RNG.uniform(0.02, 0.1)), rand_q(dt, ())
    names, inits, inputs, parts = ["y_scale", "y_zero_point"], [("y_scale", np.array(ys)), ("y_zero_point", yz)], [], []
    for k, shape in enumerate(shapes):
        x = rand_q(dt, shape)
        xs, xz = (ys, yz) if k in same else (F32(RNG.uniform(0.01, 0.15)), rand_q(dt, ()))
        xs = F32(ys / F32(2)) if k in half else xs
        v = F32(xs) * (x.astype(np.int32) - int(xz)).astype(F32)
        q = np.clip((v / F32(ys)).astype(F32), F32(lo - int(yz)), F32(hi - int(yz)))
        parts.append((np.rint(q).astype(np.int32) + int(yz)).astype(dt))
        names += ["x%d" % k, "x%d_scale" % k, "x%d_zero_point" % k]
        inits += [("x%d_scale" % k, np.array(xs, F32)), ("x%d_zero_point" % k, xz)]
        inputs.append(("x%d" % k, x))
    y = np.concatenate(parts, axis=axis)
    node = helper.make_node("QLinearConcat", names, ["y"], axis=axis, domain="com.microsoft")
    save(out, name, [node], inputs, [("y", y)], inits, inputs, [("y", y)], 13, ms=True)


def pool_geometry(in_dims, kernel, strides, pads, ceil_mode, auto_pad):
    """Output extents and (begin, end) pads of a pool, as ONNX AveragePool: a ceil_mode window that
    would start in the end padding is dropped; SAME_* pads as (out - 1) * stride + kernel - in."""
    n = len(in_dims)
    outs, pb, pe = [], [], []
    for i in range(n):
        d, k, s = in_dims[i], kernel[i], strides[i]
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            o = -(-d // s)
            total = max((o - 1) * s + k - d, 0)
            b = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
            outs.append(o), pb.append(b), pe.append(total - b)
            continue
        b, e = pads[i], pads[n + i]
        span = d + b + e - k
        o = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (o - 1) * s >= d + b:
            o -= 1
        outs.append(o), pb.append(b), pe.append(e)
    return outs, pb, pe


def qavgpool_case(out, name, dt, x_shape, kernel, strides=None, pads=None, ceil_mode=0, count_include_pad=0,
                  auto_pad=None, scales=None):
    """com.microsoft QLinearAveragePool (NCHW) as ONNX Runtime computes it (qlinear_pool.cc), in
    float32: every tap inside X dequantized, x_scale * (x - x_zp), summed in the window's row-major
    order, divided by the count (the kernel's size with count_include_pad), then
    y = saturate(rint(avg / y_scale + y_zp)). A kernel covering X without padding is ONNX
    Runtime's global pool instead: QLinearGlobalAveragePool's integer formula."""
    nsp = len(kernel)
    strides = strides or [1] * nsp
    pads = pads or [0] * (2 * nsp)
    x = rand_q(dt, x_shape)
    xs, ys = scales or (F32(RNG.uniform(0.01, 0.1)), F32(RNG.uniform(0.01, 0.1)))
    xz, yz = rand_q(dt, ()), rand_q(dt, ())
    outs, pb, pe = pool_geometry(x_shape[2:], kernel, strides, pads, ceil_mode, auto_pad)
    lo, hi = qrange(dt)
    if list(kernel) == list(x_shape[2:]) and not any(pb + pe):
        size = int(np.prod(kernel))
        acc = x.astype(np.int64).reshape(x_shape[0], x_shape[1], -1).sum(axis=2) - int(xz) * size
        y = requant(acc, np.array(F32(xs) / (F32(ys) * F32(size)), F32), int(yz), dt).reshape(
            x_shape[:2] + (1,) * nsp)
    else:
        xf = F32(xs) * (x.astype(np.int32) - int(xz)).astype(F32)
        # room for every window, ceil_mode's past the end padding too: zeros add nothing
        ext = [(outs[i] - 1) * strides[i] + kernel[i] for i in range(nsp)]
        padded = np.zeros(x_shape[:2] + tuple(ext[i] + pb[i] for i in range(nsp)), F32)
        inside = np.zeros(padded.shape[2:], np.int64)
        region = tuple(slice(pb[i], pb[i] + x_shape[2 + i]) for i in range(nsp))
        padded[(slice(None), slice(None)) + region] = xf
        inside[region] = 1
        acc = np.zeros(x_shape[:2] + tuple(outs), F32)
        cnt = np.zeros(tuple(outs), np.int64)
        for tap in np.ndindex(*kernel):  # row-major: the order ONNX Runtime adds the taps in
            win = tuple(slice(tap[i], tap[i] + strides[i] * (outs[i] - 1) + 1, strides[i]) for i in range(nsp))
            acc = (acc + padded[(slice(None), slice(None)) + win]).astype(F32)
            cnt += inside[win]
        if count_include_pad:
            cnt[...] = int(np.prod(kernel))
        avg = (acc / cnt.astype(F32)).astype(F32)
        v = ((avg / F32(ys)).astype(F32) + F32(int(yz))).astype(F32)
        y = np.clip(np.rint(v), lo, hi).astype(dt)
    inits = [("x_scale", np.array(xs, F32)), ("x_zero_point", xz), ("y_scale", np.array(ys, F32)),
             ("y_zero_point", yz)]
    attrs = dict(kernel_shape=list(kernel), strides=list(strides), ceil_mode=ceil_mode,
                 count_include_pad=count_include_pad, channels_last=0)
    attrs.update(auto_pad=auto_pad) if auto_pad else attrs.update(pads=list(pads))
    node = helper.make_node("QLinearAveragePool", ["x"] + [n for n, _ in inits], ["y"], domain="com.microsoft",
                            **attrs)
    save(out, name, [node], [("x", x)], [("y", y)], inits, [("x", x)], [("y", y)], 13, ms=True)


def main():
    out = sys.argv[1]
    u8, i8 = np.uint8, np.int8
    qconv_case(out, "qconv_3x3_u8s8", u8, i8, u8, (1, 16, 9, 20), 32, (3, 3), pads=(1, 1, 1, 1))
    qconv_case(out, "qconv_3x3_s8s8_s8_stride2", i8, i8, i8, (2, 8, 7, 7), 24, (3, 3), (2, 2), (1, 1, 1, 1),
               bias=False)
    qconv_case(out, "qconv_u8u8_dilated", u8, u8, u8, (1, 5, 11, 13), 7, (3, 2), (1, 2), (2, 0, 1, 1), (2, 2),
               wz_zero=False)
    qconv_case(out, "qconv_s8u8_u8", i8, u8, u8, (1, 6, 8, 8), 9, (3, 3), pads=(1, 1, 1, 1), wz_zero=False,
               per_channel=False)
    qconv_case(out, "qconv_u8s8_wzero", u8, i8, i8, (1, 12, 10, 10), 20, (3, 3), pads=(1, 0, 1, 2), wz_zero=False)
    qconv_case(out, "qconv_1x1", u8, i8, u8, (1, 64, 14, 14), 40, (1, 1))
    qconv_case(out, "qconv_group2", u8, i8, u8, (1, 8, 12, 12), 6, (3, 3), pads=(1, 1, 1, 1), group=2)
    qconv_case(out, "qconv_depthwise", u8, i8, u8, (1, 8, 12, 12), 8, (3, 3), (2, 2), (1, 1, 1, 1), group=8)
    # Depthwise on the pairs path (x86 without VNNI, kernels/qconv-pairs.h): ragged rows of
    # vectors, both strides, int8 x, uint8 weights with zero points, a depth multiplier of 2,
    # dilation, an odd count of taps per row (5) and 1-D.
    qconv_case(out, "qconv_dw_s1_ragged", u8, i8, u8, (1, 6, 20, 37), 6, (3, 3), pads=(1, 1, 1, 1), group=6)
    qconv_case(out, "qconv_dw_5x5_mult2", i8, u8, i8, (2, 4, 9, 23), 8, (5, 5), pads=(2, 2, 2, 2), group=4,
               wz_zero=False)
    qconv_case(out, "qconv_dw_dilated_stride2", u8, i8, u8, (1, 5, 17, 30), 5, (3, 3), (2, 2), (2, 1, 1, 2), (2, 2),
               group=5, wz_zero=False)
    qconv_case(out, "qconv_dw_1d", u8, i8, u8, (1, 4, 50), 4, (3,), pads=(1, 1), group=4)
    qconv_case(out, "qconv_mblocks", u8, i8, u8, (1, 16, 7, 7), 300, (3, 3), pads=(1, 1, 1, 1))  # 2 channel blocks
    qconv_case(out, "qconv_7x7_c3", u8, i8, u8, (1, 3, 32, 32), 16, (7, 7), (2, 2), (3, 3, 3, 3))
    qconv_case(out, "qconv_1d", u8, i8, u8, (1, 8, 30), 12, (5,), pads=(2, 2))
    qconv_case(out, "qconv_k1152", u8, i8, u8, (1, 128, 6, 6), 24, (3, 3), pads=(1, 1, 1, 1))
    qconv_case(out, "qconv_wide", i8, i8, u8, (1, 4, 2, 300), 5, (1, 3), pads=(0, 1, 0, 1))
    qconv_case(out, "qconv_c768", u8, i8, u8, (1, 768, 4, 4), 10, (3, 3), pads=(1, 1, 1, 1))  # a narrow band
    # Depthwise on the quads path (4-byte dot products: VNNI, AArch64's sdot, the portable
    # one; kernels/qconv-quads.h): 5x5 at stride 2 (two quads of taps, efficientnet's), uint8
    # weights with a zero zero point (the sum-of-x term with e = 128), a kernel row of 6 taps
    # with dilation at stride 1, rows that end mid-vector, a depth multiplier of 3, and a plane
    # taller than one band.
    qconv_case(out, "qconv_dw_5x5_s2", u8, i8, u8, (1, 6, 15, 33), 6, (5, 5), (2, 2), (2, 2, 2, 2), group=6)
    qconv_case(out, "qconv_dw_u8w_s8x", i8, u8, i8, (1, 5, 11, 19), 5, (3, 3), pads=(1, 1, 1, 1), group=5)
    qconv_case(out, "qconv_dw_1x6_dilated", u8, i8, u8, (1, 4, 7, 40), 12, (1, 6), (1, 1), (0, 3, 0, 4), (1, 2),
               group=4, wz_zero=False)
    qconv_case(out, "qconv_dw_tall", u8, i8, u8, (1, 2, 90, 200), 2, (3, 3), (2, 1), (1, 1, 1, 1), group=2)
    qdq_conv_case(out, "qdq_conv_u8_per_channel", u8, u8, (1, 8, 10, 10), 16, (3, 3), (1, 1, 1, 1), True)
    qdq_conv_case(out, "qdq_conv_s8", i8, i8, (1, 4, 9, 7), 6, (3, 3), (0, 0, 0, 0), False)
    qdq_matmul_case(out, "qdq_matmul_u8", u8, u8, (7, 40), (40, 24))
    qmatmul_case(out, "qmatmul_u8s8", u8, i8, u8, (33, 70), (70, 45))
    qmatmul_case(out, "qmatmul_3d_s8s8", i8, i8, i8, (2, 17, 32), (32, 20))
    qmatmul_case(out, "qmatmul_u8u8_bzero", u8, u8, u8, (5, 9), (9, 31), bz_zero=False)
    qmatmul_case(out, "qmatmul_batch_input", u8, i8, u8, (3, 8, 16), (3, 16, 8), b_const=False)
    qmatmul_case(out, "qmatmul_vec", u8, i8, u8, (1, 256), (256, 100), per_col=False)
    qmatmul_case(out, "qmatmul_bias_vec_s8", i8, i8, i8, (1, 70), (70, 45), bias=True)  # packed B
    qmatmul_case(out, "qmatmul_bias_rows_u8", u8, i8, u8, (13, 70), (70, 37), per_col=False, bias=True)
    qmatmul_case(out, "qmatmul_bias_b_input", u8, i8, u8, (5, 24), (24, 19), b_const=False, bias=True)  # row loops
    quantize_case(out, "quantize_u8_axis1", u8, (2, 5, 7), 1)
    quantize_case(out, "quantize_i8_axis2", i8, (2, 3, 33), 2)
    quantize_case(out, "quantize_i8", i8, (100,), None)
    dequantize_case(out, "dequantize_i8_axis0", i8, (6, 10), 0)
    dynamic_case(out, "dynamic_quantize", (3, 50))
    maxpool_case(out, "maxpool_i8_3x3_stride2", i8, (1, 5, 13, 17), (3, 3), (2, 2), (1, 1, 1, 1))
    maxpool_case(out, "maxpool_u8_2x3", u8, (2, 3, 8, 9), (2, 3), (1, 2), (0, 1, 1, 0))
    qbinary_case(out, "qadd_u8", "QLinearAdd", u8, (1, 16, 7, 9), (1, 16, 7, 9))
    qbinary_case(out, "qadd_s8", "QLinearAdd", i8, (2, 3, 37), (2, 3, 37))
    qbinary_case(out, "qadd_u8_bcast", "QLinearAdd", u8, (2, 5, 4, 6), (5, 1, 6))
    qbinary_case(out, "qadd_s8_bcast_const", "QLinearAdd", i8, (3, 1, 8), (4, 1), b_const=True)
    qbinary_case(out, "qadd_u8_scalar_b", "QLinearAdd", u8, (3, 33), (), b_const=True)
    qbinary_case(out, "qadd_s8_ties", "QLinearAdd", i8, (4, 65), (4, 65),
                 scales=(0.5, 0.25, 1.0))  # halves: round half to even
    qgap_case(out, "qgap_u8_7x7", u8, (2, 40, 7, 7))
    qgap_case(out, "qgap_s8_1d", i8, (1, 9, 30))
    qavgpool_case(out, "qavgpool_u8_3x3_s2_pads", u8, (1, 8, 11, 13), (3, 3), (2, 2), (1, 1, 1, 1))
    qavgpool_case(out, "qavgpool_s8_3x3_include_pad", i8, (2, 5, 9, 10), (3, 3), (1, 1), (1, 0, 2, 1),
                  count_include_pad=1)
    qavgpool_case(out, "qavgpool_u8_ceil_include_pad", u8, (1, 4, 8, 8), (3, 3), (2, 2), (1, 1, 1, 1),
                  ceil_mode=1, count_include_pad=1)  # the last windows reach past the padding
    qavgpool_case(out, "qavgpool_s8_ceil", i8, (1, 6, 11, 9), (2, 3), (2, 2), (0, 1, 0, 1), ceil_mode=1)
    qavgpool_case(out, "qavgpool_s8_1d_ceil", i8, (2, 3, 23), (4,), (3,), (1, 2), ceil_mode=1)
    qavgpool_case(out, "qavgpool_u8_3d", u8, (1, 3, 5, 6, 7), (2, 3, 2), (2, 1, 2), (1, 1, 0, 0, 1, 1))
    qavgpool_case(out, "qavgpool_s8_same_upper", i8, (1, 5, 9, 7), (3, 3), (2, 2), auto_pad="SAME_UPPER")
    qavgpool_case(out, "qavgpool_u8_same_lower_incl", u8, (1, 3, 6, 8), (2, 4), (1, 3), auto_pad="SAME_LOWER",
                  count_include_pad=1)
    qavgpool_case(out, "qavgpool_u8_global", u8, (1, 16, 7, 7), (7, 7))  # ONNX Runtime's global pool
    qavgpool_case(out, "qavgpool_u8_ties", u8, (1, 4, 8, 12), (2, 2), (2, 2), scales=(F32(1.0), F32(1.0)))
    # avg / y_scale just below k + 0.5: adding y_zp before rounding (as ONNX Runtime) rounds it up
    qavgpool_case(out, "qavgpool_s8_zp_before_round", i8, (1, 3, 5, 6), (1, 2), (1, 1),
                  scales=(np.nextafter(F32(0.5), F32(0)), F32(1.0)))
    qbinary_case(out, "qmul_u8", "QLinearMul", u8, (1, 16, 7, 9), (1, 16, 7, 9))
    qbinary_case(out, "qmul_s8", "QLinearMul", i8, (2, 3, 37), (2, 3, 37))
    qbinary_case(out, "qmul_u8_bcast", "QLinearMul", u8, (2, 5, 4, 6), (5, 1, 6))
    qbinary_case(out, "qmul_s8_bcast_const", "QLinearMul", i8, (3, 1, 8), (4, 1), b_const=True)
    qbinary_case(out, "qmul_u8_scalar_b", "QLinearMul", u8, (3, 33), (), b_const=True)
    qbinary_case(out, "qmul_s8_ties", "QLinearMul", i8, (4, 65), (4, 65), scales=(0.5, 1.0, 1.0))  # m = 0.5
    # p * m just below k + 0.5: adding c_zp before rounding (as ONNX Runtime) rounds it up
    qbinary_case(out, "qmul_u8_zp_before_round", "QLinearMul", u8, (2, 40), (2, 40),
                 scales=(np.nextafter(F32(0.5), F32(0)), 1.0, 1.0))
    # scales whose products round differently: the integer product first (as ONNX Runtime's
    # kernels), not the dequantized values' product, decides near-ties
    qbinary_case(out, "qmul_s8_int_product", "QLinearMul", i8, (4, 650), (4, 650), scales=(0.1, 0.1, 0.4))
    qconcat_case(out, "qconcat_u8_channels", u8, [(1, 3, 5, 7), (1, 8, 5, 7), (1, 1, 5, 7)], 1)
    qconcat_case(out, "qconcat_s8_last_axis", i8, [(2, 3, 17), (2, 3, 40)], -1, same=(1,))
    qconcat_case(out, "qconcat_u8_axis0_same", u8, [(4, 6), (2, 6), (3, 6)], 0, same=(0, 2))
    qconcat_case(out, "qconcat_s8_ties", i8, [(2, 300), (2, 100)], 1, half=(0,))  # halves: round half to even
    maxpool_case(out, "maxpool_i8_wide_rows", i8, (1, 4, 6, 70), (2, 3), (1, 2), (0, 1, 1, 0))  # rows of 35 outputs
    int16_cases(out)
    # More columns than the packed-B kernel's column sums hold at once (4096 with 64 KiB panels):
    # two passes, the second's column sums, zero points and scales from column 4096 on
    qmatmul_case(out, "qmatmul_packed_n4100", u8, i8, u8, (3, 12), (12, 4100), bz_zero=False)


if __name__ == "__main__":
    main()
