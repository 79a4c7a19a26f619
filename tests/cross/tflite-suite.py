"""TFLite models of tests/tflite/nets.py as a run-conformance.py suite, so that tests/cross runs
them on other targets against the reference tests/tflite checks the host with:

  tflite-suite.py --gen DIR --flatc FLATC --out SUITE GROUP...

For each GROUP (a nets.py model group, e.g. kws_int8) and each of its cases, SUITE/<GROUP> gets
model.tflite and test_data_set_0/ with input_<i>.pb (the case's inputs) and output_<j>.pb (Arm NN
22's outputs on its CpuRef backend, armnn-run.py; or the case's numpy reference where Arm NN
lacks an operator), as ONNX TensorProtos in the model's input and output order. DIR holds the
`tflite` package (the test tflite.flatc writes it). Only cases whose tensors glowc keeps as they
are: int8 or float inputs and outputs, no float output compared in quanta. Exit 77 (with a
"skipped:" line) without pyarmnn or flatc, as tests/tflite."""
import argparse
import importlib.util
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TFLITE = os.path.join(HERE, "..", "tflite")
sys.dont_write_bytecode = True  # the case modules are imported from the source tree


def skip(why):
    print(f"skipped: {why}")
    sys.exit(77)


def write_case(case, d, np, numpy_helper):
    if case.keep_uint8 or case.quantum or any(v.dtype == np.uint8 for v in case.inputs.values()):
        sys.exit(f"tflite-suite: {case.name} has uint8 tensors or float outputs compared in quanta, "
                 "which the test driver does not compare; pick an int8 or float model")
    data = os.path.join(d, "test_data_set_0")
    os.makedirs(os.path.join(d, "armnn"))
    os.makedirs(data)
    model = os.path.join(d, "model.tflite")
    with open(model, "wb") as f:
        f.write(case.model.bytes())
    feeds = []
    for i, name in enumerate(case.model.names[k] for k in case.model.inputs):
        value = case.inputs[name]
        np.save(os.path.join(d, f"input-{name}.npy"), value)
        feeds.append(f"{name}={os.path.join(d, f'input-{name}.npy')}")
        with open(os.path.join(data, f"input_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())
    outs = [case.model.names[k] for k in case.model.outputs]
    if case.armnn_lacks:
        ref, source = case.numpy(case.inputs), "numpy"
    else:
        r = subprocess.run([sys.executable, os.path.join(TFLITE, "armnn-run.py"), model, os.path.join(d, "armnn")]
                           + feeds, capture_output=True, text=True, timeout=600)
        if r.returncode:
            sys.exit(f"tflite-suite: Arm NN failed on {case.name} (exit {r.returncode}): {r.stderr.strip()[-400:]}")
        ref, source = {n: np.load(os.path.join(d, "armnn", n + ".npy")) for n in outs}, "Arm NN"
    for j, name in enumerate(outs):
        with open(os.path.join(data, f"output_{j}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(np.asarray(ref[name]), name).SerializeToString())
    shutil.rmtree(os.path.join(d, "armnn"))
    print(f"wrote {d}: {len(feeds)} inputs, {len(outs)} outputs ({', '.join(outs)}) from {source}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--flatc")
    ap.add_argument("--out", required=True)
    ap.add_argument("groups", nargs="+")
    args = ap.parse_args()
    for module, package in (("numpy", "python3-numpy"), ("pyarmnn", "python3-pyarmnn"),
                            ("flatbuffers", "python3-flatbuffers"), ("onnx", "python3-onnx")):
        if importlib.util.find_spec(module) is None:
            skip(f"{module} (Debian's {package}) is absent from {sys.executable}")
    if not args.flatc or not os.access(args.flatc, os.X_OK):
        skip("flatc (Debian's flatbuffers-compiler) is absent")
    if not os.path.isdir(os.path.join(args.gen, "tflite")):
        sys.exit(f"tflite-suite: no tflite package in {args.gen}: run the test tflite.flatc first")
    import numpy as np
    from onnx import numpy_helper
    sys.path[:0] = [args.gen, TFLITE]
    groups = importlib.import_module("nets").GROUPS
    for group in args.groups:
        if group not in groups:
            sys.exit(f"tflite-suite: no model group {group} in tests/tflite/nets.py (it has {', '.join(groups)})")
        cases = groups[group]()
        for case in cases:
            d = os.path.join(args.out, group if len(cases) == 1 else case.name)
            shutil.rmtree(d, ignore_errors=True)
            write_case(case, d, np, numpy_helper)
    return 0


if __name__ == "__main__":
    sys.exit(main())
