#!/usr/bin/python3
"""Random RoiAlign and GridSample cases: the kernels (a compiled bundle) against the reference
interpreter, whose eval_* are written from the ONNX spec, and the reference against ONNX Runtime.

    /usr/bin/python3 tests/conformance/kernels-vs-reference.py --compiler model-compiler \\
        --run glowc-run --interp run-interp --work DIR [--seed S]

For each op, one model holds many nodes with random shapes and attributes (every mode, padding,
align_corners, coordinate mode, sampling_ratio, spatial_scale; empty and inverted regions; grid
points exactly halfway between pixels, inside and outside the image). The model is compiled to a
bundle and run by glowc-run; its outputs become the expected outputs of a case that run-interp
checks with the harness's comparison (tests/harness/compare.c). When node and onnxruntime-node are
there (scripts/install-deps.sh), run-interp also checks the reference against ONNX Runtime's
outputs on the same inputs; otherwise that half says "skipped". Exit status 1 on any mismatch.
Needs a Python with numpy and onnx (GLOWC_PYTHON_TORCH). Fixed seed: the same cases every run.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "reference"))
import onnxref  # noqa: E402


def roialign_nodes(rng, count):
    """(node, [(input name, array)], output name, output size) for RoiAlign."""
    out = []
    for k in range(count):
        n, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
        h, w = int(rng.integers(1, 13)), int(rng.integers(1, 13))
        scale = float(rng.choice([1.0, 0.5, 0.25, 2.0]))
        r = int(rng.integers(1, 6))
        x1 = rng.uniform(-2, w + 1, r) / scale
        y1 = rng.uniform(-2, h + 1, r) / scale
        x2 = x1 + rng.uniform(-1, w, r) / scale
        y2 = y1 + rng.uniform(-1, h, r) / scale
        rois = np.stack([x1, y1, x2, y2], 1).astype(np.float32)
        rois[0, 2:] = rois[0, :2]  # an empty region
        x = rng.standard_normal((n, c, h, w)).astype(np.float32)
        bi = rng.integers(0, n, r).astype(np.int64)
        attrs = dict(mode=str(rng.choice(["avg", "max"])), output_height=int(rng.integers(1, 5)),
                     output_width=int(rng.integers(1, 5)), sampling_ratio=int(rng.choice([0, 0, 1, 2, 3])),
                     spatial_scale=scale,
                     coordinate_transformation_mode=["half_pixel", "output_half_pixel"][k % 2])
        names = ["X%d" % k, "rois%d" % k, "bi%d" % k]
        out.append((helper.make_node("RoiAlign", names, ["Y%d" % k], **attrs),
                    list(zip(names, [x, rois, bi])), "Y%d" % k, r * c * attrs["output_height"] * attrs["output_width"]))
    return out


def tie_coordinates(size, align, reach):
    """Normalized coordinates of every location m + 0.5 for m in [-reach, size + reach): halfway between
    two pixels, exactly so in float and in double (the size makes the division exact)."""
    m = np.arange(-reach, size + reach) + 0.5
    return (2 * m / (size - 1) - 1) if align else ((2 * m + 1) / size - 1)


def gridsample_nodes(rng, repeat):
    out = []
    k = 0
    for _ in range(repeat):
        for mode in ["bilinear", "nearest", "bicubic"]:
            for pad in ["zeros", "border", "reflection"]:
                for align in [0, 1]:
                    # Sizes for which tie_coordinates are exact: 2^i pixels, or 2^i + 1 with align_corners.
                    sizes = [3, 5, 9, 2] if align else [1, 2, 4, 8]
                    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 3))
                    h, w = int(rng.choice(sizes)), int(rng.choice(sizes))
                    ho, wo = int(rng.integers(2, 6)), int(rng.integers(2, 6))
                    grid = rng.uniform(-1.7, 1.7, (n, ho, wo, 2))
                    tx, ty = tie_coordinates(w, align, 3), tie_coordinates(h, align, 3)
                    row = grid[0, 0, :, :]
                    row[:, 0] = rng.choice(tx, wo)
                    row[:, 1] = rng.choice(ty, wo)
                    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
                    names = ["X%d" % k, "G%d" % k]
                    out.append((helper.make_node("GridSample", names, ["Y%d" % k], mode=mode, padding_mode=pad,
                                                 align_corners=align),
                                list(zip(names, [x, grid.astype(np.float32)])), "Y%d" % k, n * c * ho * wo))
                    k += 1
    return out


def model_of(name, nodes):
    """The nodes' outputs flattened and concatenated into one output, Y (glowc-run writes at most 16)."""
    def vi(n, a):
        return helper.make_tensor_value_info(n, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[a.dtype], list(a.shape))
    ins = [vi(n, a) for _, feeds, _, _ in nodes for n, a in feeds]
    flat = [helper.make_node("Flatten", [y], ["flat_" + y], axis=0) for _, _, y, _ in nodes]
    cat = helper.make_node("Concat", ["flat_" + y for _, _, y, _ in nodes], ["Y"], axis=1)
    outs = [helper.make_tensor_value_info("Y", onnx.TensorProto.FLOAT, None)]
    g = helper.make_graph([nd for nd, _, _, _ in nodes] + flat + [cat], name, ins, outs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)])
    m.ir_version = 8
    return m.SerializeToString()


def attr_value(a):
    v = helper.get_attribute_value(a)
    return v.decode() if isinstance(v, bytes) else v


def run(cmd, what, nodes=None):
    """Runs cmd; on failure prints its report and, for run-interp's first mismatch in Y, the node it is in."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        print("%s failed (exit %d): %s\n%s" % (what, p.returncode, " ".join(cmd), p.stdout.strip()))
        m = re.search(r"first mismatch at (\d+)", p.stdout)
        if nodes and m:
            at = int(m.group(1))
            for node, feeds, _, size in nodes:
                if at < size:
                    print("element %s of Y is element %d of %s %s, inputs %s" % (
                        m.group(1), at, node.op_type, {a.name: attr_value(a) for a in node.attribute},
                        ", ".join("%s %s" % (n, list(a.shape)) for n, a in feeds)))
                    break
                at -= size
    return p.returncode == 0


def check_op(args, name, nodes, ort):
    """Bundle vs reference, then reference vs ONNX Runtime; returns the number of failed checks."""
    work = os.path.join(args.work, name)
    shutil.rmtree(work, ignore_errors=True)
    feeds = [f for _, fs, _, _ in nodes for f in fs]
    kernel_case = os.path.join(work, "kernel")
    onnxref.write_case(kernel_case, model_of(name, nodes), feeds)
    model = os.path.join(kernel_case, "model.onnx")
    npy = os.path.join(work, "npy")
    os.makedirs(npy)
    inputs = []
    for n, a in feeds:
        np.save(os.path.join(npy, n + ".npy"), a)
        inputs.append("-input=%s=%s" % (n, os.path.join(npy, n + ".npy")))
    if not run([args.compiler, "-model=" + model, "-emit-bundle=" + work, "-network-name=model",
                "-bundle-api=dynamic"], name + ": model-compiler"):
        return 1
    if not run([args.run, "-bundle=" + os.path.join(work, "model.o"), "-output-dir=" + npy] + inputs,
               name + ": glowc-run"):
        return 1
    data = os.path.join(kernel_case, "test_data_set_0")
    with open(os.path.join(data, "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(np.load(os.path.join(npy, "Y.npy")), "Y").SerializeToString())
    bad = 0
    if run([args.interp, model, data],
           name + ": run-interp (the reference: got) against the bundle (the kernels: want)", nodes):
        print("%s: %d nodes, the kernel agrees with the reference" % (name, len(nodes)))
    else:
        bad += 1
    if not ort:
        print("%s: reference against onnxruntime skipped: %s" % (name, ort_missing()))
        return bad
    ort_case = os.path.join(work, "ort")
    onnxref.write_case(ort_case, model_of(name, nodes), feeds)
    errors = onnxref.run_ort([ort_case], check=False)
    if errors:
        print("%s: onnxruntime failed:\n%s" % (name, "\n".join(errors)))
        return bad + 1
    if run([args.interp, os.path.join(ort_case, "model.onnx"), os.path.join(ort_case, "test_data_set_0")],
           name + ": run-interp (the reference: got) against onnxruntime (want)", nodes):
        print("%s: %d nodes, the reference agrees with onnxruntime" % (name, len(nodes)))
    else:
        bad += 1
    return bad


def ort_missing():
    """Why ONNX Runtime cannot run here, or "" when it can."""
    if not shutil.which("node"):
        return "no node on PATH (scripts/install-deps.sh installs nodejs)"
    ort_dir = os.environ.get("GLOWC_ORT_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "glowc", "ort")
    if not os.path.exists(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
        return "no onnxruntime-node in %s (scripts/install-deps.sh installs it)" % ort_dir
    return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler", required=True, help="model-compiler")
    ap.add_argument("--run", required=True, help="glowc-run")
    ap.add_argument("--interp", required=True, help="run-interp")
    ap.add_argument("--work", required=True)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    ort = not ort_missing()
    bad = check_op(args, "roialign", roialign_nodes(rng, 40), ort)
    bad += check_op(args, "gridsample", gridsample_nodes(rng, 2), ort)
    if bad:
        print("kernels-vs-reference: %d check(s) failed" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
