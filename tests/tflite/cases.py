"""The tflite tests' cases: a model written with tflbuild, the values of its inputs, and its
reference (Arm NN, or a numpy function where Arm NN 22 lacks an operator). op_case() writes
the one-operator models the operator tests are made of."""
import zlib

import numpy as np

from tflbuild import Model


class Case:
    """numpy: f(inputs) -> {output name: array}. The reference when armnn_lacks says what Arm NN
    22 lacks or gets wrong there; else Arm NN is, and the numpy function (if any) is checked
    against it, so that the numpy references the other cases use are known to be right. quanta: how many quanta an
    int8/uint8 output may differ by on any element, or a float output named in quantum (output
    name -> the scale of the int8 value it dequantizes). keep_uint8: compile with
    -tflite-uint8-to-int8=false (else glowc takes uint8 tensors as int8, as Glow does).
    normwise: float error relative to the output's largest magnitude (whole networks)."""

    def __init__(self, name, model, inputs, numpy=None, armnn_lacks=None, quanta=1, keep_uint8=False,
                 quantum=None, normwise=False):
        if armnn_lacks and not numpy:
            raise ValueError(f"{name}: Arm NN lacks {armnn_lacks}, and there is no numpy reference")
        self.name, self.model, self.inputs, self.numpy, self.armnn_lacks = name, model, inputs, numpy, armnn_lacks
        self.quanta, self.keep_uint8, self.quantum, self.normwise = quanta, keep_uint8, quantum or {}, normwise


class In:
    """A model input of op_case, with these values."""

    def __init__(self, value, q=None):
        self.value, self.q = np.asarray(value), q


class C:
    """A constant of op_case."""

    def __init__(self, value, dtype=None, q=None):
        self.value, self.q = np.asarray(value, dtype), q


class Out:
    def __init__(self, shape, dtype=np.float32, q=None):
        self.shape, self.dtype, self.q = shape, dtype, q


def rng(name):
    """A generator seeded by the case's name, so every run writes the same models."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def op_case(name, kind, args, outs, numpy=None, armnn_lacks=None, quanta=1, keep_uint8=False, **options):
    """A model of one operator `kind`: args are In, C (a bare array is a C) or None (an omitted
    optional input), outs one Out or a list; numpy(*arg values) gives the output(s) (see Case).
    Inputs are named in<k>, outputs out (out<j> for several)."""
    m, inputs, idx = Model(), {}, []
    for k, a in enumerate(args):
        if a is None:
            idx.append(-1)
        elif isinstance(a, In):
            inputs[f"in{k}"] = a.value
            idx.append(m.input(f"in{k}", a.value.shape, a.value.dtype, a.q))
        else:
            a = a if isinstance(a, C) else C(a)
            idx.append(m.const(f"c{k}", a.value, q=a.q))
    outs = outs if isinstance(outs, list) else [outs]
    names = ["out"] if len(outs) == 1 else [f"out{j}" for j in range(len(outs))]
    oidx = [m.tensor(n, o.shape, o.dtype, o.q) for n, o in zip(names, outs)]
    m.op(kind, idx, oidx, **options)
    m.output(*oidx)
    ref = None
    if numpy:
        values = [None if a is None else a.value if isinstance(a, (In, C)) else np.asarray(a) for a in args]

        def ref(_inputs):
            ys = numpy(*values)
            ys = ys if isinstance(ys, tuple) else (ys,)
            return {n: np.asarray(y).astype(o.dtype) for n, y, o in zip(names, ys, outs)}
    return Case(name, m, inputs, ref, armnn_lacks, quanta, keep_uint8)
