"""Writes tiny.tflite: y = relu(x W^T + b), x float[1,4], one FULLY_CONNECTED with a fused
RELU (TFLite's layout: W is [2,4]); and its test data. The model is written with the `tflite`
package that `flatc --python --gen-object-api` makes of the importer's schema (in <out dir>).
    make-model.py <flatc> <tflite.fbs> <out dir>
writes <out dir>/tiny.tflite, x.txt (its input, rawtxt), x.npy (the same) and expected.txt
(y for x, numpy in float64). Exit 77 without flatc or Python's flatbuffers (skipped)."""
import os
import shutil
import subprocess
import sys

FLATC, FBS, OUT = sys.argv[1:4]
try:
    import flatbuffers  # noqa: E402
except ImportError:
    print("no Python flatbuffers module (Debian's python3-flatbuffers): skipped")
    sys.exit(77)
if not shutil.which(FLATC):
    print("no flatc (Debian's flatbuffers-compiler): skipped")
    sys.exit(77)
os.makedirs(OUT, exist_ok=True)
subprocess.run([FLATC, "--python", "--gen-object-api", "-o", OUT, FBS], check=True)
sys.path.insert(0, OUT)
import numpy as np  # noqa: E402
from tflite.ActivationFunctionType import ActivationFunctionType  # noqa: E402
from tflite.BuiltinOperator import BuiltinOperator  # noqa: E402
from tflite.BuiltinOptions import BuiltinOptions  # noqa: E402
from tflite.Buffer import BufferT  # noqa: E402
from tflite.FullyConnectedOptions import FullyConnectedOptionsT  # noqa: E402
from tflite.Model import ModelT  # noqa: E402
from tflite.Operator import OperatorT  # noqa: E402
from tflite.OperatorCode import OperatorCodeT  # noqa: E402
from tflite.SubGraph import SubGraphT  # noqa: E402
from tflite.Tensor import TensorT  # noqa: E402

W = np.array([[0.5, -1.0, 0.25, 2.0], [-0.5, 1.5, 1.0, -0.25]], np.float32)
B = np.array([0.125, -0.5], np.float32)
X = np.array([[1.0, 2.0, 3.0, -0.5]], np.float32)


def tensor(name, shape, buffer):
    t = TensorT()
    t.name, t.shape, t.type, t.buffer = name, shape, 0, buffer  # 0: FLOAT32
    return t


def buffer(data):
    b = BufferT()
    b.data = None if data is None else np.frombuffer(data.tobytes(), np.uint8)
    return b


model = ModelT()
model.version = 3
code = OperatorCodeT()
code.builtinCode = code.deprecatedBuiltinCode = BuiltinOperator.FULLY_CONNECTED
model.operatorCodes = [code]
model.buffers = [buffer(None), buffer(None), buffer(W), buffer(B), buffer(None)]
sg = SubGraphT()
sg.tensors = [tensor("x", [1, 4], 1), tensor("w", [2, 4], 2), tensor("b", [2], 3), tensor("y", [1, 2], 4)]
sg.inputs, sg.outputs = [0], [3]
op = OperatorT()
op.opcodeIndex, op.inputs, op.outputs = 0, [0, 1, 2], [3]
op.builtinOptionsType = BuiltinOptions.FullyConnectedOptions
op.builtinOptions = FullyConnectedOptionsT()
op.builtinOptions.fusedActivationFunction = ActivationFunctionType.RELU
sg.operators = [op]
model.subgraphs = [sg]
fb = flatbuffers.Builder(1024)
fb.Finish(model.Pack(fb), file_identifier=b"TFL3")
with open(os.path.join(OUT, "tiny.tflite"), "wb") as f:
    f.write(fb.Output())
with open(os.path.join(OUT, "x.txt"), "w") as f:
    f.write(" ".join("%.9g" % v for v in X.flat) + "\n")
np.save(os.path.join(OUT, "x.npy"), X)
y = np.maximum(X.astype(np.float64) @ W.T.astype(np.float64) + B, 0)
with open(os.path.join(OUT, "expected.txt"), "w") as f:
    f.write(" ".join("%.9g" % v for v in y.flat) + "\n")
