"""glowc's TFLite import against a TFLite runtime (label: tflite). Each case's model is written
here (tflbuild.py), run on Arm NN 22's TfLite parser with its CpuRef backend (armnn-run.py, its
own process) or, for operators Arm NN lacks, on a numpy reference (npref.py; the output says
"reference: numpy"), then compiled with model-compiler and run with glowc-run. Where a case has
a numpy function and Arm NN runs it too, the numpy result must match Arm NN as glowc's must
("numpy agrees"): so the numpy references are checked where they can be.

  check-tflite.py flatc --flatc FLATC --fbs tflite.fbs --gen DIR
      writes the `tflite` Python package (flatc --python) that every other run uses.
  check-tflite.py GROUP --flatc FLATC --gen DIR --mc MODEL_COMPILER --run GLOWC_RUN --work DIR
      GROUP: float.<family> (ops_float.py), int8.<family> (ops_int8.py), model.<name> (nets.py).

How outputs compare, by the output's type:
  float32: err = max_i |g_i - r_i| / max(|r_i|, 1e-3, 0.01 * max_j |r_j|) must be <= 1e-4: each
      element relative to itself, but near zero relative to a hundredth of the output's
      largest magnitude (float sums round by their terms, not their result), at least 1e-3.
      Whole networks: max_i |g_i - r_i| / max_j |r_j| (as tests/models), rounding over tens
      of layers being relative to the sums.
  int8, uint8 (quantized): max_i |g_i - r_i| <= the case's quanta (1 for single operators);
      so too float32 outputs that dequantize int8 values, in quanta of those.
  int32, int64, bool: equal.
Exit status 0 when every case passes, 1 otherwise, 77 (with a "skipped:" line) when pyarmnn or
flatc (or its Python runtime) is absent."""
import argparse
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import time

try:
    import numpy as np
except ImportError:  # then there is no pyarmnn either, which needs it
    np = None

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # the case modules are imported from the source tree
FLOAT_REL, FLOAT_FLOOR, FLOAT_FRACTION = 1e-4, 1e-3, 1e-2


def skip(why):
    print(f"skipped: {why}")
    sys.exit(77)


def run(cmd, what, timeout=300):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode:
        tail = "\n".join((r.stderr or r.stdout).strip().splitlines()[-3:])
        raise RuntimeError(f"{what} failed (exit {r.returncode}): {tail}")
    return r


# glowc takes uint8 tensors as int8 with the zero point less 128 (as Glow does), unless
# -tflite-uint8-to-int8=false.
def uint8_to_int8(x):
    return (x.astype(np.int16) - 128).astype(np.int8)


def int8_to_uint8(x):
    return (x.astype(np.int16) + 128).astype(np.uint8)


def float_error(g, r, normwise):
    if r.size == 0:
        return 0.0
    g, r = g.astype(np.float64), r.astype(np.float64)
    if not np.array_equal(np.isnan(g), np.isnan(r)):
        return np.inf
    ok = ~np.isnan(r)
    largest = float(np.max(np.abs(r[ok]), initial=0))
    floor = max(largest, FLOAT_FLOOR) if normwise else max(FLOAT_FLOOR, FLOAT_FRACTION * largest)
    return float(np.max(np.abs(g[ok] - r[ok]) / np.maximum(np.abs(r[ok]), floor), initial=0))


def compare(name, g, r, quanta, quantum, normwise):
    """'' when g matches r, else what differs; and the error measured (for the report)."""
    if g.shape != r.shape or g.dtype != r.dtype:
        msg = f"{name}: glowc gave {g.dtype}{list(g.shape)}, reference {r.dtype}{list(r.shape)}"
        return msg, "shape or type differs"
    if g.dtype == np.float32 and quantum:
        g, r = np.round(g / quantum).astype(np.int64), np.round(r / quantum).astype(np.int64)
    if g.dtype == np.float32:
        err = float_error(g, r, normwise)
        return ("" if err <= FLOAT_REL else f"{name}: error {err:.3g} > {FLOAT_REL}"), f"error {err:.2e}"
    if g.dtype in (np.int8, np.uint8) or quantum:
        d = int(np.max(np.abs(g.astype(np.int64) - r.astype(np.int64)), initial=0))
        n = int(np.count_nonzero(g != r))
        msg = "" if d <= quanta else f"{name}: off by {d} quanta (at most {quanta}), {n} of {g.size} differ"
        return msg, f"{d} quanta off ({n}/{g.size} differ)"
    n = int(np.count_nonzero(g != r))
    return ("" if n == 0 else f"{name}: {n} of {g.size} elements differ"), "equal" if n == 0 else f"{n} differ"


def check_case(case, args):
    """(passed, line)."""
    d = os.path.join(args.work, case.name)
    shutil.rmtree(d, ignore_errors=True)
    for sub in ("armnn", "glowc"):
        os.makedirs(os.path.join(d, sub))
    model = os.path.join(d, "model.tflite")
    with open(model, "wb") as f:
        f.write(case.model.bytes())
    feeds, glowc_feeds = [], []
    for name, value in case.inputs.items():
        path = os.path.join(d, f"input-{name}.npy")
        np.save(path, value)
        feeds.append(f"{name}={path}")
        if value.dtype == np.uint8 and not case.keep_uint8:
            path = os.path.join(d, f"input-{name}-int8.npy")
            np.save(path, uint8_to_int8(value))
        glowc_feeds.append(f"{name}={path}")
    outs = [case.model.names[i] for i in case.model.outputs]
    try:
        if case.armnn_lacks:
            source, ref = f"numpy, Arm NN 22 lacks {case.armnn_lacks}", case.numpy(case.inputs)
        else:
            source = "Arm NN"
            run([sys.executable, os.path.join(HERE, "armnn-run.py"), model, os.path.join(d, "armnn")] + feeds,
                "Arm NN (armnn-run.py)")
            ref = {n: np.load(os.path.join(d, "armnn", n + ".npy")) for n in outs}
            if case.numpy:
                mine = case.numpy(case.inputs)
                wrong = [compare(n, mine[n], ref[n], case.quanta, case.quantum.get(n), case.normwise)[0] for n in outs]
                if any(wrong):
                    return False, f"FAIL {case.name}: the numpy reference disagrees with Arm NN: " + "; ".join(
                        w for w in wrong if w)
                source += ", numpy agrees"
        t = time.time()
        run([args.mc, f"-model={model}", f"-emit-bundle={os.path.join(d, 'glowc')}", "-bundle-api=dynamic",
             "-network-name=net"] + (["-tflite-uint8-to-int8=false"] if case.keep_uint8 else []), "model-compiler")
        compile_s = time.time() - t
        run([args.run, f"-bundle={os.path.join(d, 'glowc', 'net.o')}", f"-output-dir={os.path.join(d, 'glowc')}"]
            + [f"-input={x}" for x in glowc_feeds], "glowc-run")
        got = {n: np.load(os.path.join(d, "glowc", n + ".npy")) for n in outs}
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
        return False, f"FAIL {case.name}: {e}"
    bad, errs = [], []
    for n in outs:
        g, r = got[n], np.asarray(ref[n])
        if r.dtype == np.uint8 and g.dtype == np.int8 and not case.keep_uint8:
            g = int8_to_uint8(g)
        msg, err = compare(n, g, r, case.quanta, case.quantum.get(n), case.normwise)
        if msg:
            bad.append(msg)
        errs.append(f"{n} {err}" if len(outs) > 1 else err)
    line = f"{case.name}: {', '.join(errs)} (reference: {source}; compile {compile_s:.1f} s)"
    return (False, f"FAIL {line}: " + "; ".join(bad)) if bad else (True, "ok   " + line)


def flatc(args):
    if not args.flatc or not os.access(args.flatc, os.X_OK):
        skip("flatc (Debian's flatbuffers-compiler) is absent")
    os.makedirs(args.gen, exist_ok=True)
    run([args.flatc, "--python", "--gen-object-api", "-o", args.gen, args.fbs], "flatc")
    print(f"wrote {os.path.join(args.gen, 'tflite')}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("--flatc")
    ap.add_argument("--fbs")
    ap.add_argument("--gen", required=True)
    ap.add_argument("--mc")
    ap.add_argument("--run")
    ap.add_argument("--work")
    args = ap.parse_args()
    if args.group == "flatc":
        return flatc(args)
    if np is None or importlib.util.find_spec("pyarmnn") is None:
        skip(f"pyarmnn (Debian's python3-pyarmnn) is absent from {sys.executable}")
    if not args.flatc or not os.access(args.flatc, os.X_OK) or importlib.util.find_spec("flatbuffers") is None:
        skip("flatc or its Python runtime (Debian's flatbuffers-compiler, python3-flatbuffers) is absent")
    if not os.path.isdir(os.path.join(args.gen, "tflite")):
        sys.exit(f"check-tflite: no tflite package in {args.gen}: run the test tflite.flatc first")
    sys.path[:0] = [args.gen, HERE]
    kind, _, family = args.group.partition(".")
    module = {"float": "ops_float", "int8": "ops_int8", "model": "nets"}.get(kind)
    if not module:
        sys.exit(f"check-tflite: unknown group {args.group}")
    groups = importlib.import_module(module).GROUPS
    if family not in groups:
        sys.exit(f"check-tflite: no group {family} in {module}.py (it has {', '.join(groups)})")
    t = time.time()
    cases = groups[family]()
    failed = 0
    for case in cases:
        ok, line = check_case(case, args)
        failed += not ok
        print(line, flush=True)
    print(f"{args.group}: {len(cases) - failed} passed, {failed} failed ({time.time() - t:.1f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
