#!/usr/bin/python3
"""Writes the model of Glow's bundle_tflite_custom example (tests/glow-examples), a TFLite model
with a CUSTOM operator, in the shape of Glow's tflite_custom.tflite plus a builtin ADD after it:

    /usr/bin/python3 tests/glow-examples/gen-tflite-custom.py <tflite.fbs> <out_dir>

  input "input" float32[1]; constant "constant" float32[2] = [1, 2]
  CUSTOM "MyCustomOperator" (input, constant) -> "custom_out" float32[3], "scratch" float32[4],
      custom options: the FlexBuffer map {int_field: 42, string_field: "glowc"}
  ADD (custom_out, "bias" = [10, 20, 30]) -> "output" float32[3], the model's output

Writes <out_dir>/tflite_custom.tflite, <out_dir>/options.bin (the operator's custom options, for
the client to compare byte for byte) and <out_dir>/input.npy (an input, for model-profiler). The `tflite` package is made here by flatc --python from
the importer's schema (<tflite.fbs>); FlexBuffers come from python3-flatbuffers. Two runs write the
same bytes.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import flatbuffers
import numpy as np
from flatbuffers import flexbuffers

fbs, out_dir = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="gen-tflite-custom.")
subprocess.run(["flatc", "--python", "--gen-object-api", "-o", tmp, fbs], check=True)
sys.path.insert(0, tmp)
from tflite.Buffer import BufferT  # noqa: E402
from tflite.Model import ModelT  # noqa: E402
from tflite.Operator import OperatorT  # noqa: E402
from tflite.OperatorCode import OperatorCodeT  # noqa: E402
from tflite.SubGraph import SubGraphT  # noqa: E402
from tflite.Tensor import TensorT  # noqa: E402

CUSTOM, ADD, FLOAT32 = 32, 0, 0

fx = flexbuffers.Builder()
with fx.Map():
    fx.Int("int_field", 42)
    fx.String("string_field", "glowc")
options = bytes(fx.Finish())


def floats(*v):
    return list(struct.pack("<%df" % len(v), *v))


buffers = [BufferT()]


def tensor(name, shape, data=None):
    t = TensorT()
    t.name, t.shape, t.type = name, shape, FLOAT32
    if data is not None:
        b = BufferT()
        b.data = data
        buffers.append(b)
        t.buffer = len(buffers) - 1
    return t


tensors = [tensor("input", [1]), tensor("constant", [2], floats(1, 2)), tensor("custom_out", [3]),
           tensor("scratch", [4]), tensor("bias", [3], floats(10, 20, 30)), tensor("output", [3])]

custom, add = OperatorCodeT(), OperatorCodeT()
custom.deprecatedBuiltinCode, custom.builtinCode, custom.customCode, custom.version = CUSTOM, CUSTOM, "MyCustomOperator", 1
add.deprecatedBuiltinCode, add.builtinCode, add.version = ADD, ADD, 1

op0, op1 = OperatorT(), OperatorT()
op0.opcodeIndex, op0.inputs, op0.outputs, op0.customOptions = 0, [0, 1], [2, 3], list(options)
op1.opcodeIndex, op1.inputs, op1.outputs = 1, [2, 4], [5]

sg = SubGraphT()
sg.tensors, sg.inputs, sg.outputs, sg.operators, sg.name = tensors, [0], [5], [op0, op1], "subgraph"
model = ModelT()
model.version, model.operatorCodes, model.subgraphs, model.buffers = 3, [custom, add], [sg], buffers
model.description = "glowc test: Glow's bundle_tflite_custom"

b = flatbuffers.Builder(1024)
b.Finish(model.Pack(b), file_identifier=b"TFL3")
os.makedirs(out_dir, exist_ok=True)
with open(os.path.join(out_dir, "tflite_custom.tflite"), "wb") as f:
    f.write(b.Output())
# The same model with its tensors renamed: a second entry of one bundle (-entry).
for t in tensors:
    t.name = "second_" + t.name
b = flatbuffers.Builder(1024)
b.Finish(model.Pack(b), file_identifier=b"TFL3")
with open(os.path.join(out_dir, "tflite_custom_second.tflite"), "wb") as f:
    f.write(b.Output())
with open(os.path.join(out_dir, "options.bin"), "wb") as f:
    f.write(options)
np.save(os.path.join(out_dir, "input.npy"), np.array([1.5], np.float32))
shutil.rmtree(tmp)
