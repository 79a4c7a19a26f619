"""Writes TFLite models for the tflite tests: tensors, buffers, operators with their options
and quantization parameters, through the `tflite` package that
`flatc --python --gen-object-api` makes of compiler/importer/tflite.fbs (its folder must be on
sys.path); and quantizes as TFLite's converter does (the q_* helpers).

    m = Model()
    x = m.input("x", [1, 8, 8, 3])
    w = m.const("w", np.ones((4, 3, 3, 3), np.float32))
    y = m.tensor("y", [1, 8, 8, 4])
    m.op("CONV_2D", [x, w, -1], [y], padding="SAME", stride_w=1, stride_h=1)
    m.output(y)
    open("conv.tflite", "wb").write(m.bytes())
"""
import flatbuffers
import numpy as np
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.Model import ModelT
from tflite.SubGraph import SubGraphT
from tflite.Tensor import TensorT
from tflite.Buffer import BufferT
from tflite.Operator import OperatorT
from tflite.OperatorCode import OperatorCodeT
from tflite.QuantizationParameters import QuantizationParametersT
import tflite

# numpy dtype -> TensorType.
TYPES = {np.dtype(np.float32): 0, np.dtype(np.float16): 1, np.dtype(np.int32): 2, np.dtype(np.uint8): 3,
         np.dtype(np.int64): 4, np.dtype(np.bool_): 6, np.dtype(np.int16): 7, np.dtype(np.int8): 9}

# The options table of each operator that has one (the converter writes these).
OPTIONS = {
    "CONV_2D": "Conv2DOptions", "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
    "TRANSPOSE_CONV": "TransposeConvOptions", "FULLY_CONNECTED": "FullyConnectedOptions",
    "AVERAGE_POOL_2D": "Pool2DOptions", "MAX_POOL_2D": "Pool2DOptions", "MEAN": "ReducerOptions",
    "SUM": "ReducerOptions", "REDUCE_MAX": "ReducerOptions", "REDUCE_MIN": "ReducerOptions",
    "ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions", "DIV": "DivOptions",
    "MAXIMUM": "MaximumMinimumOptions", "MINIMUM": "MaximumMinimumOptions",
    "CONCATENATION": "ConcatenationOptions", "RESHAPE": "ReshapeOptions", "SQUEEZE": "SqueezeOptions",
    "TRANSPOSE": "TransposeOptions", "PAD": "PadOptions", "PADV2": "PadV2Options",
    "STRIDED_SLICE": "StridedSliceOptions", "SLICE": "SliceOptions", "SPLIT": "SplitOptions",
    "SPLIT_V": "SplitVOptions", "PACK": "PackOptions", "UNPACK": "UnpackOptions",
    "SOFTMAX": "SoftmaxOptions", "LOG_SOFTMAX": "LogSoftmaxOptions", "LEAKY_RELU": "LeakyReluOptions",
    "HARD_SWISH": "HardSwishOptions", "RESIZE_BILINEAR": "ResizeBilinearOptions",
    "RESIZE_NEAREST_NEIGHBOR": "ResizeNearestNeighborOptions", "SPACE_TO_DEPTH": "SpaceToDepthOptions",
    "DEPTH_TO_SPACE": "DepthToSpaceOptions", "GATHER": "GatherOptions", "ARG_MAX": "ArgMaxOptions",
    "ARG_MIN": "ArgMinOptions", "CAST": "CastOptions", "QUANTIZE": "QuantizeOptions",
    "DEQUANTIZE": "DequantizeOptions", "EXP": "ExpOptions", "NEG": "NegOptions", "ABS": "AbsOptions",
    "COS": "CosOptions", "SQUARE": "SquareOptions", "SIGN": "SignOptions", "LESS": "LessOptions",
    "LESS_EQUAL": "LessEqualOptions", "GREATER": "GreaterOptions", "GREATER_EQUAL": "GreaterEqualOptions",
    "EQUAL": "EqualOptions", "NOT_EQUAL": "NotEqualOptions", "POW": "PowOptions",
    "SQUARED_DIFFERENCE": "SquaredDifferenceOptions", "FLOOR_DIV": "FloorDivOptions",
    "FLOOR_MOD": "FloorModOptions", "EXPAND_DIMS": "ExpandDimsOptions", "TILE": "TileOptions",
    "SELECT_V2": "SelectV2Options", "BATCH_MATMUL": "BatchMatMulOptions", "GELU": "GeluOptions",
}

# Enum-valued options given by name.
ENUMS = {"padding": {"SAME": 0, "VALID": 1},
         "fused_activation_function": {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3, "TANH": 4}}


def _camel(name):
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _options(table, fields):
    """An options object of class <table>T with its fields set from snake_case names."""
    obj = getattr(getattr(tflite, table), table + "T")()
    for k, v in fields.items():
        attr = _camel(k)
        if not hasattr(obj, attr):
            raise ValueError(f"{table} has no field {k}")
        if k in ENUMS and isinstance(v, str):
            v = ENUMS[k][v]
        elif isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
            v = TYPES[np.dtype(v)]
        setattr(obj, attr, v)
    return obj


class Model:
    """One subgraph; tensors are named and referred to by index."""

    def __init__(self):
        self.tensors, self.buffers, self.ops, self.codes = [], [BufferT()], [], []
        self.inputs, self.outputs = [], []
        self.shapes, self.dtypes, self.names = [], [], []

    def tensor(self, name, shape, dtype=np.float32, q=None, data=None):
        """A tensor; q: (scale, zero_point) per tensor, or (scales, zero_points, axis)."""
        t = TensorT()
        t.name, t.shape, t.type = name, list(int(d) for d in shape), TYPES[np.dtype(dtype)]
        t.buffer = 0
        if data is not None:
            b = BufferT()
            b.data = np.frombuffer(np.ascontiguousarray(data).tobytes(), np.uint8)
            self.buffers.append(b)
            t.buffer = len(self.buffers) - 1
        if q is not None:
            qp = QuantizationParametersT()
            qp.scale = [float(s) for s in np.atleast_1d(q[0])]
            qp.zeroPoint = [int(z) for z in np.atleast_1d(q[1])]
            qp.quantizedDimension = int(q[2]) if len(q) > 2 else 0
            t.quantization = qp
        self.tensors.append(t)
        self.shapes.append(tuple(t.shape))
        self.dtypes.append(np.dtype(dtype))
        self.names.append(name)
        return len(self.tensors) - 1

    def input(self, name, shape, dtype=np.float32, q=None):
        i = self.tensor(name, shape, dtype, q)
        self.inputs.append(i)
        return i

    def const(self, name, array, dtype=None, q=None):
        a = np.asarray(array, dtype=dtype)
        return self.tensor(name, a.shape, a.dtype, q, data=a)

    def output(self, *idx):
        self.outputs.extend(idx)

    def op(self, kind, ins, outs, options=None, **fields):
        """Operator `kind` (BuiltinOperator's name); its options table is OPTIONS[kind] unless
        `options` names one, its fields given as snake_case keywords (enums by name)."""
        code = getattr(BuiltinOperator, kind)
        if code not in self.codes:
            self.codes.append(code)
        o = OperatorT()
        o.opcodeIndex = self.codes.index(code)
        o.inputs, o.outputs = list(ins), list(outs)
        table = options or OPTIONS.get(kind)
        if table:
            o.builtinOptionsType = getattr(BuiltinOptions, table)
            o.builtinOptions = _options(table, fields)
        elif fields:
            raise ValueError(f"{kind} has no options table here: {fields}")
        self.ops.append(o)
        return outs[0] if len(outs) == 1 else outs

    def bytes(self):
        sg = SubGraphT()
        sg.tensors, sg.inputs, sg.outputs, sg.operators = self.tensors, self.inputs, self.outputs, self.ops
        sg.name = "main"
        m = ModelT()
        m.version = 3
        m.subgraphs = [sg]
        m.buffers = self.buffers
        m.description = "written by glowc's tests/tflite/tflbuild.py"
        m.operatorCodes = []
        for code in self.codes:
            c = OperatorCodeT()
            c.deprecatedBuiltinCode = min(code, BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES)
            c.builtinCode = code
            c.version = 1
            m.operatorCodes.append(c)
        b = flatbuffers.Builder(1 << 16)
        b.Finish(m.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())


# Quantization as TFLite's converter does it.
def q_activation(lo, hi, dtype=np.int8):
    """Asymmetric per-tensor parameters for values seen in [lo, hi] (the range widened to hold
    0, the zero point nudged to an integer in range): (scale, zero_point)."""
    qmin, qmax = (-128, 127) if dtype == np.int8 else (0, 255)
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    scale = (hi - lo) / (qmax - qmin) if hi > lo else 1.0
    zero = qmin - lo / scale
    return scale, int(min(max(round(zero), qmin), qmax))


def q_weights(w, axis):
    """Symmetric int8 per-channel weights along `axis` (values in [-127, 127]):
    (int8 array, scales)."""
    other = tuple(a for a in range(w.ndim) if a != axis)
    scale = np.max(np.abs(w), axis=other) / 127.0
    scale = np.where(scale > 0, scale, 1.0).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
    return q, scale


def q_bias(b, in_scale, w_scales):
    """int32 bias with scale in_scale * w_scale[c], zero point 0: (int32 array, scales)."""
    scale = (np.float64(in_scale) * np.asarray(w_scales, np.float64)).astype(np.float32)
    return np.round(b / scale).astype(np.int32), scale


def quantize(x, scale, zero, dtype=np.int8):
    info = np.iinfo(dtype)
    return np.clip(np.round(np.asarray(x, np.float64) / scale) + zero, info.min, info.max).astype(dtype)


def dequantize(q, scale, zero):
    return (np.asarray(q, np.float64) - zero) * scale
