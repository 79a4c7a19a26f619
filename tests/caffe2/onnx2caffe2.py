#!/usr/bin/python3
"""Converts an ONNX model (as torch exports image classifiers) into a Caffe2 model: a folder
with predict_net.pb (the ops) and init_net.pb (the weights as GivenTensorFill ops), NetDefs
of compiler/importer/caffe2.proto. No Caffe2 runtime is installable, so the tests build their
Caffe2 nets this way and check glowc's Caffe2 bundle against ONNX Runtime on the ONNX twin.

    /usr/bin/python3 tests/caffe2/onnx2caffe2.py <model.onnx> <out_dir>

The nets look like the Caffe2 model zoo's: Relu in place, Sum for residual adds, FC on the
pooled 4-D blob (the Flatten before a Gemm folded in), SpatialBN with is_test, MaxPool with
ceil_mode as legacy_pad 3 (CAFFE_LEGACY_POOLING), GlobalAveragePool as AveragePool with
global_pooling, Concat and Reshape with their second outputs, Dropout with is_test and a mask,
a channel bias (Add of a [C,1,1] constant) as Add with broadcast=1 and axis=1, and
Reshape/Transpose/Reshape of a channel shuffle as ChannelShuffle. Window arguments use
every spelling Caffe2 reads (kernel, kernel_h/kernel_w, kernels; pad, pad_t/.../pad_r, pads).
Ops it does not know are an error. Message classes come from caffe2.proto through protoc-c's
--descriptor_set_out (PROTOC_C names protoc-c when it is not on PATH).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from onnx import numpy_helper, shape_inference

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.join(HERE, "..", "..", "compiler", "importer", "caffe2.proto")


def caffe2_messages():
    """(NetDef, OperatorDef, Argument) classes made from caffe2.proto."""
    with tempfile.TemporaryDirectory() as tmp:
        desc = os.path.join(tmp, "caffe2.desc")
        subprocess.run([os.environ.get("PROTOC_C", "protoc-c"), "--descriptor_set_out=" + desc,
                        "--proto_path=" + os.path.dirname(PROTO), os.path.basename(PROTO)], check=True)
        fds = descriptor_pb2.FileDescriptorSet.FromString(open(desc, "rb").read())
    pool = descriptor_pool.DescriptorPool()
    for fd in fds.file:
        pool.Add(fd)
    factory = message_factory.MessageFactory(pool)
    return [factory.GetPrototype(pool.FindMessageTypeByName("caffe2." + m))
            for m in ("NetDef", "OperatorDef", "Argument")]


NetDef, OperatorDef, Argument = caffe2_messages()


def arg(name, v):
    a = Argument(name=name)
    if isinstance(v, bytes):
        a.s = v
    elif isinstance(v, str):
        a.s = v.encode()
    elif isinstance(v, float):
        a.f = v
    elif isinstance(v, (int, np.integer)):
        a.i = int(v)
    elif len(v) and isinstance(v[0], float):
        a.floats.extend(v)
    else:
        a.ints.extend(int(x) for x in v)
    return a


def op(type_, inputs, outputs, name="", **args):
    o = OperatorDef(type=type_, name=name)
    o.input.extend(inputs)
    o.output.extend(outputs)
    o.arg.extend(arg(k, v) for k, v in args.items())
    return o


def fill(name, array):
    """The init_net op that makes a weight."""
    kind = {np.dtype(np.float32): ("GivenTensorFill", lambda a: [float(x) for x in a]),
            np.dtype(np.int64): ("GivenTensorInt64Fill", list),
            np.dtype(np.int32): ("GivenTensorIntFill", list)}[array.dtype]
    return op(kind[0], [], [name], shape=list(array.shape), values=kind[1](array.reshape(-1).tolist()))


def window_args(kernel, strides, pads, dilations):
    """Conv/pool arguments in the spelling Caffe2 zoo nets use for them."""
    a = {}
    if kernel is not None:
        if len(kernel) == 2 and kernel[0] == kernel[1]:
            a["kernel"] = kernel[0]
        elif len(kernel) == 2:
            a["kernel_h"], a["kernel_w"] = kernel
        else:
            a["kernels"] = kernel
    if any(s != 1 for s in strides):
        if len(set(strides)) == 1:
            a["stride"] = strides[0]
        else:
            a["strides"] = strides
    if any(pads):
        if len(set(pads)) == 1:
            a["pad"] = pads[0]
        elif len(pads) == 4:
            a["pad_t"], a["pad_l"], a["pad_b"], a["pad_r"] = pads
        else:
            a["pads"] = pads
    if any(d != 1 for d in dilations):
        a["dilations"] = dilations
    return a


class Converter:
    def __init__(self, model):
        self.model = shape_inference.infer_shapes(model)
        g = self.model.graph
        self.consts = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        self.shapes = {}
        for vi in list(g.value_info) + list(g.input) + list(g.output):
            dims = vi.type.tensor_type.shape.dim
            self.shapes[vi.name] = [d.dim_value for d in dims]
        for n in g.node:
            if n.op_type == "Constant":
                self.consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
        self.uses = {}
        for n in g.node:
            for i in n.input:
                self.uses.setdefault(i, []).append(n)
        self.outputs = {o.name for o in g.output}
        self.blob = {}  # ONNX value -> Caffe2 blob (in-place ops write their input's blob)
        self.ops, self.weights, self.done = [], {}, set()

    def name(self, v):
        return self.blob.get(v, v)

    def weight(self, v, array=None):
        array = self.consts[v] if array is None else array
        self.weights[v] = array
        return v

    def only_use(self, v):
        uses = self.uses.get(v, [])
        return uses[0] if len(uses) == 1 and v not in self.outputs else None

    def in_place(self, x, y):
        """Relu, Dropout and SpatialBN write their input's blob when nothing else reads it."""
        if self.only_use(x) and y not in self.outputs:
            self.blob[y] = self.name(x)
        return self.name(y)

    def shuffle_group(self, n):
        """The group of a channel shuffle Reshape([N,g,C/g,H,W]) -> Transpose(0,2,1,3,4) -> Reshape(X's shape)."""
        t = self.only_use(n.output[0])
        r = t and t.op_type == "Transpose" and self.only_use(t.output[0])
        shape = self.shapes.get(n.input[0])
        mid = self.consts.get(n.input[1]) if len(n.input) > 1 else None
        if not (r and r.op_type == "Reshape" and shape and len(shape) == 4 and mid is not None and len(mid) == 5):
            return None
        perm = [a.ints for a in t.attribute if a.name == "perm"][0]
        if list(perm) != [0, 2, 1, 3, 4] or self.shapes.get(r.output[0]) != shape:
            return None
        return int(mid[1]), r

    def convert(self):
        g = self.model.graph
        for n in g.node:
            if n.name not in self.done:
                self.node(n, {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute})
        predict = NetDef(name="predict")
        predict.op.extend(self.ops)
        inputs = [i.name for i in g.input if i.name not in self.consts]
        predict.external_input.extend(inputs + sorted(self.weights))
        predict.external_output.extend(self.name(o.name) for o in g.output)
        init = NetDef(name="init")
        init.op.extend(fill(k, self.weights[k]) for k in sorted(self.weights))
        return predict, init

    def node(self, n, a):
        t, x, y = n.op_type, [i for i in n.input], n.output[0]
        name = n.name.strip("/").replace("/", "_")
        emit = lambda type_, ins, outs, **args: self.ops.append(op(type_, ins, outs, name, **args))
        if t in ("Constant", "Identity") and (t == "Constant" or x[0] in self.consts):
            self.consts[y] = self.consts[x[0]] if t == "Identity" else self.consts[y]
        elif t == "Conv":
            w = self.consts[x[1]]
            k = list(a.get("kernel_shape", w.shape[2:]))
            nsp = len(k)
            args = window_args(k, a.get("strides", [1] * nsp), a.get("pads", [0] * 2 * nsp),
                               a.get("dilations", [1] * nsp))
            if a.get("group", 1) != 1:
                args["group"] = a["group"]
            emit("Conv", [self.name(x[0])] + [self.weight(v) for v in x[1:]], [y], order="NCHW", **args)
        elif t in ("Relu", "Sigmoid", "Tanh"):
            emit(t, [self.name(x[0])], [self.in_place(x[0], y)])
        elif t == "Clip":
            lo, hi = (float(self.consts[v]) for v in x[1:3])
            emit("Clip", [self.name(x[0])], [self.in_place(x[0], y)], min=lo, max=hi)
        elif t in ("MaxPool", "AveragePool"):
            k = list(a["kernel_shape"])
            args = window_args(k, a.get("strides", [1] * len(k)), a.get("pads", [0] * 2 * len(k)), [1] * len(k))
            if a.get("ceil_mode"):
                args["legacy_pad"] = 3
            if a.get("count_include_pad"):
                args["count_include_pad"] = 1
            emit(t, [self.name(x[0])], [y], order="NCHW", **args)
        elif t in ("GlobalAveragePool", "GlobalMaxPool"):
            emit(t[6:], [self.name(x[0])], [y], global_pooling=1)
        elif t == "Flatten" and self.only_use(y) and self.only_use(y).op_type == "Gemm" and a.get("axis", 1) == 1:
            self.blob[y] = self.name(x[0])  # FC flattens its input itself
        elif t == "Flatten":
            emit("Flatten", [self.name(x[0])], [y], axis=a.get("axis", 1))
        elif t == "Gemm":
            assert a.get("alpha", 1.0) == 1.0 and a.get("beta", 1.0) == 1.0 and not a.get("transA")
            emit("FC" if a.get("transB") else "FCTransposed", [self.name(x[0]), self.weight(x[1]), self.weight(x[2])],
                 [y])
        elif t == "BatchNormalization":
            emit("SpatialBN", [self.name(x[0])] + [self.weight(v) for v in x[1:]], [self.in_place(x[0], y)],
                 is_test=1, epsilon=float(a.get("epsilon", 1e-5)), order="NCHW")
        elif t == "LRN":
            emit("LRN", [self.name(x[0])], [y, y + "_scale"], size=a["size"], alpha=float(a.get("alpha", 1e-4)),
                 beta=float(a.get("beta", 0.75)), bias=float(a.get("bias", 1.0)), order="NCHW")
        elif t == "Dropout":
            emit("Dropout", [self.name(x[0])], [self.in_place(x[0], y), y + "_mask"], is_test=1,
                 ratio=float(a.get("ratio", 0.5)))
        elif t == "Concat":
            emit("Concat", [self.name(v) for v in x], [y, y + "_split_info"], axis=a["axis"])
        elif t == "Softmax":
            rank = len(self.shapes[x[0]])
            assert a.get("axis", -1) in (-1, rank - 1) and rank == 2 or self.model.opset_import[0].version < 13
            emit("Softmax", [self.name(x[0])], [y], axis=a.get("axis", 1) % rank)
        elif t in ("Add", "Mul") and not any(v in self.consts for v in x):
            emit("Sum" if t == "Add" else "Mul", [self.name(v) for v in x], [y])
        elif t in ("Add", "Mul"):
            self.broadcast(n, t, x, y, emit)
        elif t == "Reshape" and self.shuffle_group(n):
            group, last = self.shuffle_group(n)
            self.done.update(u.name for u in (self.only_use(n.output[0]), last))
            emit("ChannelShuffle", [self.name(x[0])], [last.output[0]], group=group, order="NCHW")
        elif t == "Reshape":
            emit("Reshape", [self.name(x[0])], [y, y + "_old_shape"], shape=list(self.consts[x[1]]))
        elif t == "Transpose":
            emit("Transpose", [self.name(x[0])], [y], axes=list(a["perm"]))
        else:
            raise SystemExit("onnx2caffe2: %s (%s) has no Caffe2 equivalent here" % (n.name, t))

    def broadcast(self, n, t, x, y, emit):
        """A constant B lined up with A's axes from `axis` on: B's trailing 1s dropped."""
        k = 0 if x[0] in self.consts else 1
        a_rank, b = len(self.shapes[x[1 - k]]), self.consts[x[k]]
        dims = list(b.shape)
        while dims and dims[-1] == 1:
            dims.pop()
        axis = a_rank - len(b.shape)
        while dims and dims[0] == 1:
            dims.pop(0)
            axis += 1
        w = self.weight(n.name + "_b", b.reshape(dims or [1]).astype(b.dtype))
        emit(t, [self.name(x[1 - k]), w], [y], broadcast=1, axis=axis)


def convert(model, out_dir):
    predict, init = Converter(model).convert()
    os.makedirs(out_dir, exist_ok=True)
    for name, net in (("predict_net.pb", predict), ("init_net.pb", init)):
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(net.SerializeToString())
    return predict


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    convert(onnx.load(sys.argv[1]), sys.argv[2])


if __name__ == "__main__":
    main()
