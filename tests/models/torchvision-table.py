#!/usr/bin/python3
"""Every torchvision 0.14 classifier through glowc, against ONNX Runtime: prints a table.

    /usr/bin/python3 tests/models/torchvision-table.py --compiler <model-compiler> \\
        --link "<cc> {obj} <run-bundle driver and libraries> -o {exe}" --work DIR \\
        [--opset 13 --opset 17] [--latency] [--table FILE] [names...]

(`cmake --build build --target torchvision-table` runs it with the build's compiler and driver.)
For each model (all of torchvision.models.list_models() when none are named) and opset:
tests/models/gen-models.py exports it (random weights, batch 1) and runs ONNX Runtime for the
reference; model-compiler compiles it (timed); the bundle is linked with tests/harness/run-bundle.c
and must match within 1e-4 relative max error (max |glowc - ORT| / max |ORT|). Compile time is
given as wall and CPU seconds (the CPU time stays meaningful on a busy machine). With --latency,
bench/bench-bundle.c and bench/ort-bench.js time both (median of 5 runs, one thread).
One model at a time; its files are deleted before the next. Each row is appended to --table
(markdown) as soon as it is known, so an interrupted run keeps what it measured.
"""
import argparse
import functools
import importlib.util
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
GEN = os.path.join(HERE, "gen-models.py")
# Above 2 GiB of weights an ONNX file needs external data, which glowc's importer refuses.
TOO_BIG = {"vit_h_14": "632M parameters: 2.5 GB of weights, over protobuf's 2 GiB",
           "regnet_y_128gf": "645M parameters: 2.6 GB of weights, over protobuf's 2 GiB"}
COLUMNS = ["model", "opset", "params (M)", "nodes", "export+ORT (s)", "compile (s)", "compile CPU (s)", "max rel error",
           "result", "glowc ms", "ORT ms"]


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -1, f"timed out after {timeout} s"


@functools.lru_cache(maxsize=None)
def gen_models():
    spec = importlib.util.spec_from_file_location("gen_models", GEN)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def params_millions(name):
    return sum(p.numel() for p in gen_models().classifier_model(name).parameters()) / 1e6


def timed(cmd, timeout):
    """run() plus the wall and CPU seconds it took."""
    t0, c0 = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    rc, out = run(cmd, timeout)
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return rc, out, time.monotonic() - t0, c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime


def first_error(out):
    return next((l.strip() for l in out.splitlines() if "error" in l.lower()), out.strip()[-200:])


def one(args, name, opset):
    """One row of the table, as a dict over COLUMNS."""
    row = dict.fromkeys(COLUMNS, "")
    row.update(model=name, opset=opset, result="FAIL")
    case_name = f"{name}_op{opset}"
    suite = os.path.join(args.work, "models")
    bundle = os.path.join(args.work, "bundle")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(bundle)
    try:
        if name in TOO_BIG:
            row.update(result="skipped", detail=TOO_BIG[name])
            return row
        row["params (M)"] = f"{params_millions(name):.1f}"
        rc, out, wall, _ = timed([sys.executable, GEN, suite, case_name], args.timeout)
        row["export+ORT (s)"] = f"{wall:.1f}"
        if rc != 0:  # the exporter's or ONNX Runtime's last line says why
            row.update(result="no reference", detail=(out.strip().splitlines() or [""])[-1][:200])
            return row
        case = os.path.join(suite, case_name)
        model = os.path.join(case, "model.onnx")
        rc, out, wall, cpu = timed([args.compiler, "-model=" + model, "-emit-bundle=" + bundle,
                                    "-network-name=model", "-bundle-api=dynamic", "-verbose"], args.timeout)
        row["compile (s)"] = f"{wall:.1f}"
        row["compile CPU (s)"] = f"{cpu:.1f}"
        row["nodes"] = (re.findall(r"(\d+) nodes after optimization", out) or [""])[0]
        if rc != 0:
            row["detail"] = "compile: " + first_error(out)
            return row
        exe = os.path.join(bundle, "run")
        obj = os.path.join(bundle, "model.o")
        rc, out = run([a.replace("{obj}", obj).replace("{exe}", exe) for a in shlex.split(args.link)],
                      args.timeout)
        if rc != 0:
            row["detail"] = "link: " + first_error(out)
            return row
        weights = os.path.join(bundle, "model.weights.bin")
        rc, out = run([exe, weights, os.path.join(case, "test_data_set_0"), "-max-rel", "1e-4"], args.timeout)
        rel = re.findall(r"max relative error (\S+)", out)
        row["max rel error"] = ", ".join(rel)
        if rc == 0:
            row["result"] = "pass"
        else:
            row["detail"] = "run: " + (out.strip().splitlines() or [""])[-1]
        if args.latency and rc == 0:
            bench = os.path.join(bundle, "bench")
            rc, out = run(["cc", "-O2", "-I" + os.path.join(ROOT, "runtime"), os.path.join(ROOT, "bench", "bench-bundle.c"),
                           os.path.join(ROOT, "runtime", "runtime.c"), obj, "-o", bench], args.timeout)
            if rc == 0:
                rc, out = run([bench, weights, "5", "1"], args.timeout)
                row["glowc ms"] = out.split()[1] if rc == 0 else "?"
            rc, out = run(["node", os.path.join(ROOT, "bench", "ort-bench.js"), model, "5", "1"], args.timeout)
            row["ORT ms"] = out.split()[1] if rc == 0 else "?"
        return row
    finally:
        shutil.rmtree(args.work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--link", required=True, help="link command with {obj} and {exe} placeholders")
    ap.add_argument("--work", required=True, help="scratch folder, emptied for each model")
    ap.add_argument("--opset", type=int, action="append", help="opsets to export at (default 13)")
    ap.add_argument("--latency", action="store_true", help="also time glowc and ONNX Runtime")
    ap.add_argument("--table", help="append the markdown rows here as they come")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per step")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if not args.names:
        rc, out = run([sys.executable, "-c", "import torchvision.models as m; print(*m.list_models(module=m))"], 60)
        args.names = out.split()
    cols = COLUMNS + ["detail"]
    header = "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols)
    print(header, flush=True)
    if args.table and not os.path.exists(args.table):
        with open(args.table, "w") as f:
            f.write(header + "\n")
    failed = 0
    for name in args.names:
        for opset in args.opset or [13]:
            row = one(args, name, opset)
            failed += row["result"] not in ("pass", "skipped")
            line = "| " + " | ".join(str(row.get(c, "")).replace("|", "/") for c in cols) + " |"
            print(line, flush=True)
            if args.table:
                with open(args.table, "a") as f:
                    f.write(line + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
