"""The int8 operator tests, quantized as TFLite's converter quantizes: int8 weights symmetric per
output channel, int32 bias with scale input scale * weight scale (zero point 0), activations
per tensor with a zero point, their ranges calibrated on float values (npref.py computes the
float output the output's range comes from). Operators whose int8 kernels keep the quantization
(pools, reshape, pad, concat as the converter writes it) have the input's parameters on the
output; softmax's output is 1/256 with zero point -128. Arm NN is the reference, within one
quantum; where Arm NN 22 lacks a case, the float64 result requantized (TFLite's integer kernels
are within a quantum of it)."""
import numpy as np

import npref
from cases import C, In, Out, op_case, rng
from tflbuild import dequantize, q_activation, q_bias, q_weights, quantize

I8, I32 = np.int8, np.int32


def activation(r, shape, lo=-1.0, hi=1.5):
    """An int8 input with values spread over [lo, hi]: (values, (scale, zero point))."""
    q = q_activation(lo, hi)
    return quantize(r.uniform(lo, hi, shape), *q), q


def calibrated(y):
    """The parameters of an output whose float values are y."""
    return q_activation(np.min(y), np.max(y))


def weighted(r, name, kind, x_shape, w_shape, axis, ref, armnn_lacks=None, **options):
    """A CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED case: per-channel weights along `axis`;
    ref(x, w, b) is the float operator its output's range comes from, and, requantized, the
    numpy reference (TFLite's integer kernels are within a quantum of it; checked against Arm NN
    where Arm NN has the case)."""
    x, xq = activation(r, x_shape)
    wq, ws = q_weights(r.standard_normal(w_shape) * 0.3, axis)
    bq, bs = q_bias(r.standard_normal(w_shape[axis]) * 0.5, xq[0], ws)
    zeros = np.zeros(len(ws), np.int64)
    scale_shape = [1] * len(w_shape)
    scale_shape[axis] = -1
    y = ref(dequantize(x, *xq), dequantize(wq, ws.reshape(scale_shape), 0), dequantize(bq, bs, 0))
    yq = calibrated(y)
    return op_case(name, kind, [In(x, q=xq), C(wq, q=(ws, zeros, axis)), C(bq, q=(bs, zeros, 0))],
                   Out(y.shape, I8, yq), numpy=lambda *_: quantize(y, *yq), armnn_lacks=armnn_lacks, **options)


def conv():
    r = rng("int8.conv")
    return [
        weighted(r, "int8.conv.same_relu", "CONV_2D", (1, 8, 8, 3), (4, 3, 3, 3), 0,
                 lambda x, w, b: npref.conv2d(x, w, b, act="RELU"), padding="SAME", stride_w=1, stride_h=1,
                 fused_activation_function="RELU"),
        weighted(r, "int8.conv.valid_stride2_relu6", "CONV_2D", (1, 9, 9, 4), (6, 3, 3, 4), 0,
                 lambda x, w, b: npref.conv2d(x, w, b, (2, 2), "VALID", "RELU6"), padding="VALID", stride_w=2,
                 stride_h=2, fused_activation_function="RELU6"),
        weighted(r, "int8.conv.same_stride2_1x1_batch2", "CONV_2D", (2, 7, 7, 8), (5, 1, 1, 8), 0,
                 lambda x, w, b: npref.conv2d(x, w, b, (2, 2)), padding="SAME", stride_w=2, stride_h=2),
    ]


def depthwise():
    r = rng("int8.depthwise")
    return [
        weighted(r, "int8.depthwise.same_relu6", "DEPTHWISE_CONV_2D", (1, 8, 8, 4), (1, 3, 3, 4), 3,
                 lambda x, w, b: npref.depthwise(x, w, b, act="RELU6"), padding="SAME", stride_w=1, stride_h=1,
                 depth_multiplier=1, fused_activation_function="RELU6"),
        weighted(r, "int8.depthwise.multiplier2_stride2", "DEPTHWISE_CONV_2D", (1, 9, 9, 3), (1, 3, 3, 6), 3,
                 lambda x, w, b: npref.depthwise(x, w, b, (2, 2), "VALID"), padding="VALID", stride_w=2,
                 stride_h=2, depth_multiplier=2),
    ]


def fully_connected():
    r = rng("int8.fully_connected")
    cases = [
        weighted(r, "int8.fully_connected.per_channel_relu", "FULLY_CONNECTED", (2, 16), (8, 16), 0,
                 lambda x, w, b: npref.fully_connected(x, w, b, "RELU"), armnn_lacks="per-channel FULLY_CONNECTED "
                 "weights (it aborts)", fused_activation_function="RELU"),
    ]
    # Per-tensor weights, as converters before per-channel dense layers wrote them.
    x, xq = activation(r, (3, 12))
    wf = r.standard_normal((6, 12)) * 0.3
    ws = np.float32(np.max(np.abs(wf)) / 127)
    wq = quantize(wf, ws, 0)
    bq, bs = q_bias(r.standard_normal(6) * 0.5, xq[0], [ws])
    y = npref.fully_connected(dequantize(x, *xq), dequantize(wq, ws, 0), dequantize(bq, bs, 0))
    cases.append(op_case("int8.fully_connected.per_tensor", "FULLY_CONNECTED",
                         [In(x, q=xq), C(wq, q=(ws, 0)), C(bq, q=(bs, 0))], Out(y.shape, I8, calibrated(y))))
    return cases


def binary(name, kind, r, a_shape, b_shape, b_range, ref, **options):
    a, aq = activation(r, a_shape)
    b, bq = activation(r, b_shape, *b_range)
    y = ref(dequantize(a, *aq), dequantize(b, *bq))
    return op_case(name, kind, [In(a, q=aq), In(b, q=bq)], Out(y.shape, I8, calibrated(y)), **options)


def add():
    r = rng("int8.add")
    return [
        binary("int8.add.scales_differ", "ADD", r, (1, 5, 5, 4), (1, 5, 5, 4), (-3, 2), np.add),
        binary("int8.add.relu6", "ADD", r, (1, 4, 4, 3), (1, 4, 4, 3), (-0.5, 4),
               lambda a, b: np.clip(a + b, 0, 6), fused_activation_function="RELU6"),
        binary("int8.add.broadcast", "ADD", r, (1, 4, 4, 3), (1, 1, 1, 3), (-2, 2), np.add),
    ]


def mul():
    r = rng("int8.mul")
    return [
        binary("int8.mul.scales_differ", "MUL", r, (1, 5, 5, 4), (1, 5, 5, 4), (-3, 2), np.multiply),
        binary("int8.mul.broadcast_relu", "MUL", r, (2, 3, 4), (3, 1), (0.5, 2),
               lambda a, b: np.maximum(a * b, 0), fused_activation_function="RELU"),
    ]


def pool():
    """The converter keeps the input's parameters on a pool's output."""
    r = rng("int8.pool")
    cases = []
    for kind, short in (("AVERAGE_POOL_2D", "avg"), ("MAX_POOL_2D", "max")):
        for name, shape, k, s, pad, out in (("same_3x3_stride2", (1, 9, 9, 3), 3, 2, "SAME", (1, 5, 5, 3)),
                                            ("valid_2x2", (2, 8, 6, 4), 2, 2, "VALID", (2, 4, 3, 4)),
                                            ("global_5x5", (1, 5, 5, 8), 5, 1, "VALID", (1, 1, 1, 8))):
            x, xq = activation(r, shape)
            cases.append(op_case(f"int8.pool.{short}_{name}", kind, [In(x, q=xq)], Out(out, I8, xq), padding=pad,
                                 stride_w=s, stride_h=s, filter_width=k, filter_height=k))
    return cases


def concat():
    r = rng("int8.concat")
    a, q = activation(r, (1, 3, 3, 2))
    b = quantize(r.uniform(-1, 1.5, (1, 3, 3, 5)), *q)
    c, cq = activation(r, (1, 3, 3, 4), -4, 1)
    d, dq = activation(r, (1, 2, 3, 4), 0, 3)
    y = np.concatenate([dequantize(c, *cq), dequantize(d, *dq)], axis=1)
    return [
        op_case("int8.concat.same_parameters", "CONCATENATION", [In(a, q=q), In(b, q=q)], Out((1, 3, 3, 7), I8, q),
                axis=3),
        op_case("int8.concat.rescaled", "CONCATENATION", [In(c, q=cq), In(d, q=dq)],
                Out(y.shape, I8, calibrated(y)), axis=1),
    ]


def softmax():
    r = rng("int8.softmax")
    cases = []
    for name, shape, beta in (("2d", (3, 10), 1.0), ("4d_beta_half", (1, 2, 2, 6), 0.5)):
        x, xq = activation(r, shape, -6, 4)
        cases.append(op_case(f"int8.softmax.{name}", "SOFTMAX", [In(x, q=xq)], Out(shape, I8, (1 / 256, -128)),
                             beta=beta))
    return cases


def reshape():
    r = rng("int8.reshape")
    x, xq = activation(r, (1, 2, 2, 6))
    return [op_case("int8.reshape.flatten", "RESHAPE", [In(x, q=xq), C([1, 24], I32)], Out((1, 24), I8, xq))]


def pad():
    """PAD keeps its input's parameters and pads with the zero point (a real 0)."""
    r = rng("int8.pad")
    x, xq = activation(r, (1, 4, 5, 3), 0, 6)
    p = [[0, 0], [1, 2], [0, 1], [0, 0]]
    return [op_case("int8.pad.zero_point", "PAD", [In(x, q=xq), C(p, I32)], Out((1, 7, 6, 3), I8, xq),
                    numpy=lambda v, p: np.pad(v, p, constant_values=xq[1]),
                    armnn_lacks="the zero point as int8 PAD's value (it pads with 0)")]


def mean():
    """MEAN over height and width (the converter's global average pool), requantized."""
    r = rng("int8.mean")
    x, xq = activation(r, (1, 6, 6, 8), 0, 6)
    y = dequantize(x, *xq).mean(axis=(1, 2))
    return [op_case("int8.mean.hw", "MEAN", [In(x, q=xq), C([1, 2], I32)], Out((1, 8), I8, calibrated(y)),
                    keep_dims=False)]


def uint8():
    """The older converter's uint8 quantization (per-tensor asymmetric uint8 weights), which
    glowc takes as int8 with zero points less 128, as Glow does: a convolution, an average pool
    and a softmax (output 1/256, zero point 0)."""
    r = rng("int8.uint8")
    U8 = np.uint8
    xq = q_activation(-1, 1.5, U8)
    x = quantize(r.uniform(-1, 1.5, (1, 6, 6, 3)), *xq, U8)
    wf = r.standard_normal((4, 3, 3, 3)) * 0.3
    wq_ = q_activation(wf.min(), wf.max(), U8)
    w = quantize(wf, *wq_, U8)
    bq, bs = q_bias(r.standard_normal(4) * 0.5, xq[0], [wq_[0]])
    y = npref.conv2d(dequantize(x, *xq), dequantize(w, *wq_), dequantize(bq, bs, 0), act="RELU6")
    yq = q_activation(y.min(), y.max(), U8)
    p = quantize(r.uniform(-1, 1.5, (1, 6, 6, 3)), *xq, U8)
    sq = q_activation(-6, 4, U8)
    logits = quantize(r.uniform(-6, 4, (2, 10)), *sq, U8)
    return [
        op_case("int8.uint8.conv_relu6", "CONV_2D", [In(x, q=xq), C(w, q=wq_), C(bq, q=(bs[0], 0))],
                Out(y.shape, U8, yq), padding="SAME", stride_w=1, stride_h=1, fused_activation_function="RELU6"),
        op_case("int8.uint8.avgpool", "AVERAGE_POOL_2D", [In(p, q=xq)], Out((1, 3, 3, 3), U8, xq), padding="VALID",
                stride_w=2, stride_h=2, filter_width=2, filter_height=2),
        op_case("int8.uint8.softmax", "SOFTMAX", [In(logits, q=sq)], Out((2, 10), U8, (1 / 256, 0)), beta=1.0),
    ]


GROUPS = {"conv": conv, "depthwise": depthwise, "fully_connected": fully_connected, "add": add, "mul": mul,
          "pool": pool, "concat": concat, "softmax": softmax, "reshape": reshape, "pad": pad, "mean": mean,
          "uint8": uint8}
