"""numpy implementations of TFLite operators, written from TFLite's operator definitions (in
float64, NHWC): the tflite tests' reference where Arm NN 22 lacks an operator, and the float
model that calibrates the int8 models' activation ranges, as the converter's calibration does."""
import math

import numpy as np


def same_pads(size, k, stride, dilation=1):
    """TFLite's SAME padding of one spatial axis: (output size, pad before, pad after); the odd
    pixel goes after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (k - 1) * dilation + 1 - size, 0)
    return out, total // 2, total - total // 2


def _windows(x, kh, kw, stride, padding, dilation=(1, 1), value=0.0):
    """x [N,H,W,C] -> windows [N,OH,OW,C,kh,kw] (padded with `value`)."""
    n, h, w, c = x.shape
    sh, sw = stride
    dh, dw = dilation
    if padding == "SAME":
        _, ph0, ph1 = same_pads(h, kh, sh, dh)
        _, pw0, pw1 = same_pads(w, kw, sw, dw)
        x = np.pad(x, ((0, 0), (ph0, ph1), (pw0, pw1), (0, 0)), constant_values=value)
    ekh, ekw = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    v = np.lib.stride_tricks.sliding_window_view(x, (ekh, ekw), axis=(1, 2))
    return v[:, ::sh, ::sw, :, ::dh, ::dw]


def activation(x, act):
    return {"NONE": lambda v: v, "RELU": lambda v: np.maximum(v, 0), "RELU6": lambda v: np.clip(v, 0, 6),
            "RELU_N1_TO_1": lambda v: np.clip(v, -1, 1), "TANH": np.tanh}[act](x)


def conv2d(x, w, b, stride=(1, 1), padding="SAME", act="NONE", dilation=(1, 1)):
    """x [N,H,W,C], w [O,kh,kw,C] (OHWI), b [O] or None."""
    v = _windows(np.asarray(x, np.float64), w.shape[1], w.shape[2], stride, padding, dilation)
    y = np.einsum("nhwcij,oijc->nhwo", v, np.asarray(w, np.float64), optimize=True)
    return activation(y + (0 if b is None else b), act)


def depthwise(x, w, b, stride=(1, 1), padding="SAME", act="NONE", dilation=(1, 1)):
    """w [1,kh,kw,C*M]: output channel c*M+m reads input channel c."""
    c = x.shape[3]
    kh, kw, m = w.shape[1], w.shape[2], w.shape[3] // c
    v = _windows(np.asarray(x, np.float64), kh, kw, stride, padding, dilation)
    y = np.einsum("nhwcij,ijcm->nhwcm", v, np.asarray(w, np.float64).reshape(kh, kw, c, m), optimize=True)
    return activation(y.reshape(y.shape[:3] + (c * m,)) + (0 if b is None else b), act)


def fully_connected(x, w, b, act="NONE", keep_num_dims=False):
    """w [O,I]; x flattened to [-1, I] (or its last axis kept with keep_num_dims)."""
    x = np.asarray(x, np.float64)
    y = x.reshape(-1, w.shape[1]) @ np.asarray(w, np.float64).T + (0 if b is None else b)
    if keep_num_dims:
        y = y.reshape(x.shape[:-1] + (w.shape[0],))
    return activation(y, act)


def pool(x, kind, k, stride, padding="VALID", act="NONE"):
    """AVERAGE_POOL_2D (padding not counted) or MAX_POOL_2D."""
    x = np.asarray(x, np.float64)
    if kind == "MAX":
        y = _windows(x, k[0], k[1], stride, padding, value=-np.inf).max(axis=(4, 5))
    else:
        s = _windows(x, k[0], k[1], stride, padding).sum(axis=(4, 5))
        n = _windows(np.ones(x.shape[:3] + (1,)), k[0], k[1], stride, padding).sum(axis=(4, 5))
        y = s / n
    return activation(y, act)


def softmax(x, beta=1.0, axis=-1):
    e = np.exp(beta * (x - np.max(x, axis=axis, keepdims=True)))
    return e / e.sum(axis=axis, keepdims=True)


def logistic(x):
    return 1 / (1 + np.exp(-x))


def gather(params, indices, axis=0, batch_dims=0):
    """GATHER: np.take along `axis`, per batch for batch_dims > 0."""
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    return np.stack([gather(p, i, axis - 1, batch_dims - 1) for p, i in zip(params, indices)])


# Unary math operators TFLite defines elementwise (float).
UNARY = {
    "ABS": np.abs, "CEIL": np.ceil, "COS": np.cos, "EXP": np.exp, "FLOOR": np.floor, "LOG": np.log,
    "NEG": np.negative, "ROUND": np.round,  # halves to even, as TFLite's ROUND
    "RSQRT": lambda v: 1 / np.sqrt(v), "SIN": np.sin,
    "SQRT": np.sqrt, "SQUARE": np.square, "SIGN": np.sign,
    "ELU": lambda v: np.where(v > 0, v, np.expm1(v)),
    "GELU": lambda v: 0.5 * v * (1 + np.vectorize(math.erf)(v / math.sqrt(2))),
    "LOGICAL_NOT": np.logical_not,
}

# Comparisons (broadcasting as numpy does, as TFLite's do).
COMPARE = {"EQUAL": np.equal, "NOT_EQUAL": np.not_equal, "LESS": np.less, "LESS_EQUAL": np.less_equal,
           "GREATER": np.greater, "GREATER_EQUAL": np.greater_equal}


def _resize_coords(out, size, align_corners, half_pixel):
    """The source coordinate of each output index along one axis, unrounded."""
    scale = (size - 1) / (out - 1) if align_corners and out > 1 else size / out
    o = np.arange(out, dtype=np.float64)
    return (o + 0.5) * scale - 0.5 if half_pixel else o * scale, scale


def resize_bilinear(x, size, align_corners=False, half_pixel_centers=False):
    x = np.asarray(x, np.float64)
    y = x
    for axis, out in ((1, size[0]), (2, size[1])):
        n = y.shape[axis]
        c, _ = _resize_coords(out, n, align_corners, half_pixel_centers)
        lo = np.maximum(np.floor(c), 0).astype(int)
        hi = np.minimum(np.ceil(c), n - 1).astype(int)
        f = c - np.floor(c)
        shape = [1] * 4
        shape[axis] = out
        f = f.reshape(shape)
        y = np.take(y, lo, axis=axis) * (1 - f) + np.take(y, hi, axis=axis) * f
    return y


def resize_nearest(x, size, align_corners=False, half_pixel_centers=False):
    y = np.asarray(x)
    for axis, out in ((1, size[0]), (2, size[1])):
        n = y.shape[axis]
        _, scale = _resize_coords(out, n, align_corners, False)
        v = (np.arange(out) + (0.5 if half_pixel_centers else 0.0)) * scale
        # TFLite rounds half away from zero with align_corners, else floors.
        idx = np.floor(v + 0.5) if align_corners else np.floor(v)
        y = np.take(y, np.clip(idx.astype(int), 0, n - 1), axis=axis)
    return y


def transpose_conv(x, w, b, out_shape, stride, padding):
    """TRANSPOSE_CONV: w [O,kh,kw,I]; each input pixel adds its weighted kernel at
    stride steps; the result is cropped as the forward convolution's padding would be."""
    n, h, wd, _ = x.shape
    o, kh, kw, _ = w.shape
    full = np.zeros((n, (h - 1) * stride[0] + kh, (wd - 1) * stride[1] + kw, o))
    for i in range(kh):
        for j in range(kw):
            full[:, i:i + (h - 1) * stride[0] + 1:stride[0], j:j + (wd - 1) * stride[1] + 1:stride[1]] += np.einsum(
                "nhwc,oc->nhwo", np.asarray(x, np.float64), np.asarray(w[:, i, j, :], np.float64))
    top = left = 0
    if padding == "SAME":
        top = max((h - 1) * stride[0] + kh - out_shape[1], 0) // 2
        left = max((wd - 1) * stride[1] + kw - out_shape[2], 0) // 2
    full = np.pad(full, ((0, 0), (0, max(out_shape[1] + top - full.shape[1], 0)),
                         (0, max(out_shape[2] + left - full.shape[2], 0)), (0, 0)))
    y = full[:, top:top + out_shape[1], left:left + out_shape[2]]
    return y + (0 if b is None else b)


def space_to_depth(x, b):
    n, h, w, c = x.shape
    return x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, b * b * c)


def depth_to_space(x, b):
    n, h, w, c = x.shape
    return x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))


def log_softmax(x, axis=-1):
    x = np.asarray(x, np.float64)
    s = x - np.max(x, axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def prelu(x, alpha):
    return np.where(x >= 0, x, alpha * np.asarray(x, np.float64))
