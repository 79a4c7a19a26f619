"""Writes test cases in the ONNX node-test layout with ONNX Runtime's outputs as the reference.

    import onnxref
    onnxref.write_case(case_dir, model_bytes, [("x", array), ...])   model.onnx, input_N.pb
    onnxref.run_ort([case_dir, ...])                                  output_N.pb from ORT 1.30

Shared by tests/models/gen-models.py and tests/coverage/gen-coverage.py. run_ort runs every case
in one node process (tests/reference/ort-run.js), so a few hundred small models take seconds.
"""
import os
import subprocess
import tempfile

from onnx import numpy_helper

ORT_RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ort-run.js")


def write_case(case_dir, model_bytes, inputs):
    """model.onnx and test_data_set_0/input_N.pb for (name, numpy array) pairs, in order."""
    data = os.path.join(case_dir, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(case_dir, "model.onnx"), "wb") as f:
        f.write(model_bytes)
    for i, (name, x) in enumerate(inputs):
        with open(os.path.join(data, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(x, name).SerializeToString())


def run_ort(case_dirs, check=True):
    """Runs ONNX Runtime on each case, writing its output_N.pb. Returns ORT's error lines (each
    names the model or case that failed); raises when check is set and any failed."""
    # Pairs in a file: ORT crashes on a long command line (see ort-run.js).
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as pairs:
        for case in case_dirs:
            pairs.write("%s %s\n" % (os.path.join(case, "model.onnx"), os.path.join(case, "test_data_set_0")))
        pairs.flush()
        p = subprocess.run(["node", ORT_RUN, "--pairs", pairs.name], stderr=subprocess.PIPE, text=True)
    errors = [l for l in p.stderr.splitlines() if l.startswith("ort-run:")]
    if p.returncode and not errors:
        errors = ["ort-run.js exited with status %d" % p.returncode]
    if check and errors:
        raise RuntimeError("onnxruntime failed:\n" + "\n".join(errors))
    return errors
