"""Whole models for the tflite tests, with random weights: a MobileNet v2 (width 0.35, 96x96,
1000 classes) in float32 and in int8, and a DS-CNN keyword-spotting network (49x10x1 MFCC
input, 12 classes) in int8. A Net holds the layers with float weights, runs them in numpy
(npref.py) and writes them as a float model, or as an int8 one quantized as TFLite's converter
quantizes after calibrating each activation's range on random inputs run through the float
network. Both outputs are checked: the logits and the softmax."""
import numpy as np

import npref
from cases import Case, rng
from tflbuild import Model, q_activation, q_bias, q_weights, quantize

F32, I8, I32 = np.float32, np.int8, np.int32


class Net:
    """Layers in order; each reads earlier values by name and writes one value."""

    def __init__(self, name, r, input_shape):
        self.name, self.r, self.layers, self.shapes = name, r, [], {"input": tuple(input_shape)}

    def _add(self, kind, ins, shape, **p):
        out = f"{kind}{len(self.layers)}"
        self.layers.append((kind, ins, out, p))
        self.shapes[out] = tuple(shape)
        return out

    def _he(self, shape, fan_in):
        return (self.r.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(F32)

    def conv(self, x, out, k, stride=1, act="RELU6"):
        """SAME padding, as every convolution here."""
        n, h, w, c = self.shapes[x]
        kh, kw = (k, k) if isinstance(k, int) else k
        return self._add("conv", [x], (n, -(-h // stride), -(-w // stride), out),
                         w=self._he((out, kh, kw, c), kh * kw * c), b=(0.1 * self.r.standard_normal(out)).astype(F32),
                         stride=stride, act=act)

    def depthwise(self, x, k=3, stride=1, act="RELU6"):
        n, h, w, c = self.shapes[x]
        return self._add("depthwise", [x], (n, -(-h // stride), -(-w // stride), c), w=self._he((1, k, k, c), k * k),
                         b=(0.1 * self.r.standard_normal(c)).astype(F32), stride=stride, act=act)

    def add(self, a, b):
        return self._add("add", [a, b], self.shapes[a])

    def mean(self, x):
        n, _, _, c = self.shapes[x]
        return self._add("mean", [x], (n, c))

    def avgpool(self, x, k):
        n, h, w, c = self.shapes[x]
        return self._add("avgpool", [x], (n, (h - k[0]) // k[0] + 1, (w - k[1]) // k[1] + 1, c), k=k)

    def reshape(self, x, shape):
        return self._add("reshape", [x], shape)

    def fc(self, x, out):
        n, c = self.shapes[x]
        return self._add("fc", [x], (n, out), w=self._he((out, c), c) * 0.5,
                         b=(0.1 * self.r.standard_normal(out)).astype(F32))

    def softmax(self, x):
        return self._add("softmax", [x], self.shapes[x])

    def run(self, x):
        """Every value of the network on input x (float64)."""
        v = {"input": np.asarray(x, np.float64)}
        for kind, ins, out, p in self.layers:
            a = [v[i] for i in ins]
            s = (p.get("stride", 1),) * 2
            if kind == "conv":
                v[out] = npref.conv2d(a[0], p["w"], p["b"], s, "SAME", p["act"])
            elif kind == "depthwise":
                v[out] = npref.depthwise(a[0], p["w"], p["b"], s, "SAME", p["act"])
            elif kind == "add":
                v[out] = a[0] + a[1]
            elif kind == "mean":
                v[out] = a[0].mean(axis=(1, 2))
            elif kind == "avgpool":
                v[out] = npref.pool(a[0], "AVG", p["k"], p["k"])
            elif kind == "reshape":
                v[out] = a[0].reshape(self.shapes[out])
            elif kind == "fc":
                v[out] = npref.fully_connected(a[0], p["w"], p["b"])
            elif kind == "softmax":
                v[out] = npref.softmax(a[0])
        return v

    def outputs(self):
        """The logits and the softmax: the last two values."""
        return [self.layers[-2][2], self.layers[-1][2]]

    def float_model(self):
        m = Model()
        t = {"input": m.input("input", self.shapes["input"])}
        for kind, ins, out, p in self.layers:
            t[out] = m.tensor(out, self.shapes[out])
            self._emit(m, t, kind, ins, out, p, lambda name, a: m.const(name, a))
        m.output(*(t[o] for o in self.outputs()))
        return m

    def int8_model(self, ranges, float_io):
        """int8 activations with calibrated ranges; float_io: float input and outputs with
        QUANTIZE and DEQUANTIZE around them (the converter's default), else int8 ones.
        Returns the model and each value's (scale, zero point)."""
        m, q, t = Model(), {}, {}
        q["input"] = q_activation(*ranges["input"])
        if float_io:
            x = m.input("input", self.shapes["input"])
            t["input"] = m.tensor("input_int8", self.shapes["input"], I8, q["input"])
            m.op("QUANTIZE", [x], [t["input"]])
        else:
            t["input"] = m.input("input", self.shapes["input"], I8, q["input"])
        for kind, ins, out, p in self.layers:
            if kind in ("avgpool", "reshape"):
                q[out] = q[ins[0]]  # the converter keeps these operators' parameters
            elif kind == "softmax":
                q[out] = (1 / 256, -128)
            else:
                q[out] = q_activation(*ranges[out])
            name = out + "_int8" if float_io and out in self.outputs() else out
            t[out] = m.tensor(name, self.shapes[out], I8, q[out])
            self._emit(m, t, kind, ins, out, p, self._int8_const(m, q[ins[0]][0], kind))
        outs = []
        for o in self.outputs():
            if float_io:
                y = m.tensor(o, self.shapes[o])
                m.op("DEQUANTIZE", [t[o]], [y])
                outs.append(y)
            else:
                outs.append(t[o])
        m.output(*outs)
        return m, q

    @staticmethod
    def _int8_const(m, in_scale, kind):
        """Weights per output channel (FULLY_CONNECTED per tensor: Arm NN 22 aborts on
        per-channel ones), bias int32 at input scale times weight scale."""
        state = {}

        def const(name, a):
            if name.endswith("/w"):
                axis = 3 if kind == "depthwise" else 0
                if kind == "fc":
                    s = np.float32(np.max(np.abs(a)) / 127)
                    state["ws"] = np.full(a.shape[0], s, F32)
                    return m.const(name, quantize(a, s, 0), q=(s, 0))
                wq, ws = q_weights(a, axis)
                state["ws"] = ws
                return m.const(name, wq, q=(ws, np.zeros(len(ws), np.int64), axis))
            bq, bs = q_bias(a, in_scale, state["ws"])
            if kind == "fc":
                return m.const(name, bq, q=(bs[0], 0))
            return m.const(name, bq, q=(bs, np.zeros(len(bs), np.int64), 0))
        return const

    def _emit(self, m, t, kind, ins, out, p, const):
        a = [t[i] for i in ins]
        y = [t[out]]
        s = p.get("stride", 1)
        if kind == "conv":
            m.op("CONV_2D", [a[0], const(out + "/w", p["w"]), const(out + "/b", p["b"])], y, padding="SAME",
                 stride_w=s, stride_h=s, fused_activation_function=p["act"])
        elif kind == "depthwise":
            m.op("DEPTHWISE_CONV_2D", [a[0], const(out + "/w", p["w"]), const(out + "/b", p["b"])], y,
                 padding="SAME", stride_w=s, stride_h=s, depth_multiplier=1,
                 fused_activation_function=p["act"])
        elif kind == "add":
            m.op("ADD", a, y)
        elif kind == "mean":
            m.op("MEAN", [a[0], m.const(out + "/axes", np.array([1, 2], I32))], y, keep_dims=False)
        elif kind == "avgpool":
            m.op("AVERAGE_POOL_2D", a, y, padding="VALID", stride_w=p["k"][1], stride_h=p["k"][0],
                 filter_width=p["k"][1], filter_height=p["k"][0])
        elif kind == "reshape":
            m.op("RESHAPE", [a[0], m.const(out + "/shape", np.array(self.shapes[out], I32))], y)
        elif kind == "fc":
            m.op("FULLY_CONNECTED", [a[0], const(out + "/w", p["w"]), const(out + "/b", p["b"])], y)
        elif kind == "softmax":
            m.op("SOFTMAX", a, y, beta=1.0)


def _divisible(v, d=8):
    """Keras' _make_divisible: channel counts of a width multiplier."""
    n = max(d, int(v + d / 2) // d * d)
    return n + d if n < 0.9 * v else n


def mobilenet_v2(alpha=0.35, size=96, classes=1000):
    """MobileNet v2 as TF-slim's (the hosted TFLite models' source) with batch norms folded away:
    SAME padding throughout (Keras' ZeroPadding2D would make PADs, which Arm NN 22 pads with 0
    in int8, not the zero point), residual ADDs, MEAN, FULLY_CONNECTED, SOFTMAX."""
    net = Net("mobilenet_v2", rng("mobilenet_v2"), (1, size, size, 3))
    x = net.conv("input", _divisible(32 * alpha), 3, 2)
    c = _divisible(32 * alpha)
    for t, ch, n, s in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                        (6, 320, 1, 1)):
        out = _divisible(ch * alpha)
        for i in range(n):
            stride = s if i == 0 else 1
            h = net.conv(x, c * t, 1) if t != 1 else x
            h = net.depthwise(h, 3, stride)
            h = net.conv(h, out, 1, act="NONE")
            x = net.add(x, h) if stride == 1 and c == out else h
            c = out
    x = net.conv(x, 1280, 1)
    net.softmax(net.fc(net.mean(x), classes))
    return net


def kws_dscnn(filters=64, blocks=4, classes=12):
    """A DS-CNN keyword spotter (Arm's ML-zoo structure): 10x4 stride-2 convolution, depthwise
    separable blocks, average pool over the whole map, FULLY_CONNECTED, SOFTMAX."""
    net = Net("kws_dscnn", rng("kws_dscnn"), (1, 49, 10, 1))
    x = net.conv("input", filters, (10, 4), 2, act="RELU")
    for _ in range(blocks):
        x = net.conv(net.depthwise(x, 3, 1, act="RELU"), filters, 1, act="RELU")
    _, h, w, c = net.shapes[x]
    x = net.reshape(net.avgpool(x, (h, w)), (1, c))
    net.softmax(net.fc(x, classes))
    return net


def calibrate(net, r, n=8, lo=-1.0, hi=1.0):
    """Each value's [min, max] over n random inputs in [lo, hi], run as one batch: the
    converter's representative dataset."""
    x = r.uniform(lo, hi, (n,) + net.shapes["input"][1:])
    batch = Net(net.name, None, x.shape)
    batch.layers = net.layers
    batch.shapes = {k: (n,) + v[1:] for k, v in net.shapes.items()}
    return {k: (float(v.min()), float(v.max())) for k, v in batch.run(x).items()}


def float_case(net):
    """Arm NN is the reference; the numpy network (the calibration's) is checked against it."""
    x = rng(net.name + ".input").uniform(-1, 1, net.shapes["input"]).astype(F32)

    def numpy(inputs):
        v = net.run(inputs["input"])
        return {o: v[o].astype(F32) for o in net.outputs()}
    return [Case(f"model.{net.name}_float", net.float_model(), {"input": x}, numpy=numpy, normwise=True)]


def int8_case(net, float_io, quanta):
    """float_io: the outputs are dequantized, and compared in quanta of the int8 value before."""
    ranges = calibrate(net, rng(net.name + ".calibration"))
    xf = rng(net.name + ".input").uniform(-1, 1, net.shapes["input"]).astype(F32)
    x = xf if float_io else quantize(xf, *q_activation(*ranges["input"]))
    m, q = net.int8_model(ranges, float_io)
    quantum = {o: q[o][0] for o in net.outputs()} if float_io else None
    return [Case(f"model.{net.name}_int8", m, {"input": x}, quanta=quanta, quantum=quantum)]


GROUPS = {
    "mobilenet_v2_float": lambda: float_case(mobilenet_v2()),
    "mobilenet_v2_int8": lambda: int8_case(mobilenet_v2(), float_io=True, quanta=2),
    "kws_int8": lambda: int8_case(kws_dscnn(), float_io=False, quanta=2),
}
