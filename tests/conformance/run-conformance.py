#!/usr/bin/env python3
"""Conformance harness: every ONNX node test compiled to a bundle, linked with
the generic driver (tests/harness/run-bundle.c), run and compared.

    run-conformance.py --compiler model-compiler --link "<cc> ... {obj} ... -o {exe}" \
        --suite ../shared/onnx-node-tests --work DIR [--must-pass FILE] [--jobs N] [--filter RE]

For another target (tests/cross), the bundle is compiled for it, linked with
its compiler and run under an emulator:

    run-conformance.py --compiler model-compiler --compiler-arg=-target=aarch64-linux-gnu \
        --link "aarch64-linux-gnu-gcc {obj} <driver built for aarch64> -lm -o {exe}" \
        --run-prefix "qemu-aarch64 -L /usr/aarch64-linux-gnu" --only-must-pass ...

Each test ends in one category: passed; wrong result (it compiled and ran but
an output differs); error (crash, link failure, timeout); or, when the compiler
refused it with an error, the reason it gave: sequence/optional types,
training-only op, string tensors, data-dependent output shape, random numbers,
control flow (subgraphs), not implemented yet, refused (other). Tests listed in
--defects (suite-defects.txt: the suite's own data is wrong) can also end as
"invalid test data" or "passed (corrected reference)". Prints one line per test
that did not pass, then the count of every category. Exit status 1 if any test
gave a wrong result or an error, or a test in --must-pass did not pass.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -999, "timed out after %ds" % timeout
    except OSError as e:
        return -998, "cannot run %s: %s" % (cmd[0], e)


def pb_fields(data):
    """(field, wire type, value) of a serialized protobuf message, in order; value is an int
    for varints and the bytes for fixed and length-delimited fields."""
    i = 0
    while i < len(data):
        key, i = varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(data, i)
        elif wire in (1, 5):
            n = 8 if wire == 1 else 4
            v, i = data[i:i + n], i + n
        elif wire == 2:
            n, i = varint(data, i)
            v, i = data[i:i + n], i + n
        else:
            return
        yield field, wire, v


def pb_name(path):
    """The name field (8) of a serialized TensorProto."""
    for field, wire, v in pb_fields(open(path, "rb").read()):
        if field == 8 and wire == 2:
            return v.decode("utf-8", "replace")
    return None


def varint(data, i):
    v = shift = 0
    while True:
        b = data[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return v, i


def put_varint(v):
    out = bytearray()
    while True:
        out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)


def put_len(field, data):
    return put_varint(field << 3 | 2) + put_varint(len(data)) + data


BIND_RE = re.compile(r"-bind-input=([^,\s]+),")

# Why a test does not pass, from the compiler's first error line; the first
# pattern that matches names the category. glowc's messages say these reasons
# (compiler/importer/op-refusal.c, the importer's type checks, the ops' own
# checks), so a new refusal that fits none shows up as "refused (other)".
REFUSALS = [
    ("sequence/optional types", re.compile(r"sequence and optional types|sequence or optional values")),
    ("training-only op", re.compile(r"training")),
    ("string tensors", re.compile(r"string tensors|to string")),
    ("data-dependent output shape", re.compile(r"output shape depends on|compile-time constant")),
    ("random numbers", re.compile(r"random-number generator")),
    ("control flow (subgraphs)", re.compile(r"control flow")),
    ("not implemented yet", re.compile(r"unsupported op|not supported|not implemented|no \w+ kernel for type")),
]
CATEGORIES = ["passed", "passed (corrected reference)", "invalid test data"] + [c for c, _ in REFUSALS] + [
    "refused (other)", "wrong result", "error"]


def refusal(first):
    return next((c for c, pat in REFUSALS if pat.search(first)), "refused (other)")


def read_defects(path):
    """{test: kind} from suite-defects.txt."""
    defects = {}
    if path:
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    test, kind = line.rstrip("\n").split("\t")[:2]
                    defects[test] = kind
    return defects


def bfloat16_rne(case, out_dir):
    """Writes out_dir with the case's inputs and output_0.pb recomputed from input_0.pb
    (float32) rounded to nearest even bfloat16, in the expected file's type and name."""
    data = os.path.join(case, "test_data_set_0")
    shutil.rmtree(out_dir, ignore_errors=True)
    shutil.copytree(data, out_dir)
    dims, floats = [], b""
    for field, wire, v in pb_fields(open(os.path.join(data, "input_0.pb"), "rb").read()):
        if field == 1 and wire == 0:
            dims.append(v)
        elif field == 1 and wire == 2:
            i = 0
            while i < len(v):
                d, i = varint(v, i)
                dims.append(d)
        elif field in (4, 9) and wire == 2:
            floats += v
    expected = {f: v for f, _, v in pb_fields(open(os.path.join(data, "output_0.pb"), "rb").read())}
    words = struct.unpack("<%dI" % (len(floats) // 4), floats)
    halves = []
    for w in words:
        if (w & 0x7F800000) == 0x7F800000 and (w & 0x7FFFFF):
            halves.append((w >> 16) | 0x40)
        else:
            halves.append(((w + 0x7FFF + ((w >> 16) & 1)) >> 16) & 0xFFFF)
    pb = b"".join(put_varint(1 << 3) + put_varint(d) for d in dims)
    pb += put_varint(2 << 3) + put_varint(expected[2]) + put_len(8, expected[8])
    pb += put_len(9, struct.pack("<%dH" % len(halves), *halves))
    with open(os.path.join(out_dir, "output_0.pb"), "wb") as f:
        f.write(pb)
    return out_dir


def defect_verdict(args, name, rc, out, rerun):
    """The category of a test listed in --defects that failed the way its defect
    predicts (rerun(data_dir) runs it again on other data), else None."""
    defect = args.defects.get(name)
    if rc == 1 and defect == "bfloat16-rne":
        corrected = bfloat16_rne(os.path.join(args.suite, name), os.path.join(args.work, name, "corrected"))
        if rerun(corrected)[0] == 0:
            return name, "passed (corrected reference)", "matches round-to-nearest-even bfloat16 (see suite-defects.txt)"
    if rc == 1 and defect == "ort-reference" and args.ort_run:
        ort_dir = os.path.join(args.work, name, "ort")
        shutil.rmtree(ort_dir, ignore_errors=True)
        os.makedirs(ort_dir)
        data = os.path.join(args.suite, name, "test_data_set_0")
        for f in os.listdir(data):
            if f.startswith("input_"):
                shutil.copy(os.path.join(data, f), ort_dir)
        orc, oout = run(shlex.split(args.ort_run) + [os.path.join(args.suite, name, "model.onnx"), ort_dir], args.timeout)
        if orc == 0 and rerun(ort_dir)[0] == 0:
            return name, "passed (corrected reference)", "matches ONNX Runtime's output (see suite-defects.txt)"
    if rc == 2 and defect == "invalid-input" and re.search(r"the bundle expects|does not match input", out):
        return name, "invalid test data", out.strip().splitlines()[-1][:300]
    return None


def one_interp(args, name):
    """The same test through the reference interpreter (run-interp) instead of a bundle."""
    case = os.path.join(args.suite, name)
    data = os.path.join(case, "test_data_set_0")
    cmd = [args.interp, os.path.join(case, "model.onnx"), data]
    rc, out = run(cmd, args.timeout)
    bound, files = [], None
    while rc == 3 and BIND_RE.search(out):
        files = files or {pb_name(os.path.join(data, f)): f for f in os.listdir(data) if f.startswith("input_")}
        more = sorted(set(m for m in BIND_RE.findall(out) if m in files and m not in bound))
        if not more:
            break
        bound += more
        cmd = cmd[:3] + ["-bind-input=%s,%s" % (b, os.path.join(data, files[b])) for b in bound]
        rc, out = run(cmd, args.timeout)
    if args.verbose:
        print("%s:\n%s" % (name, out.strip()), flush=True)
    if rc == 0:
        return name, "passed", "bound: " + ",".join(bound) if bound else ""
    verdict = defect_verdict(args, name, rc, out, lambda d: run([cmd[0], cmd[1], d] + cmd[3:], args.timeout))
    if verdict:
        return verdict
    if rc == 3:
        first = next((l for l in out.splitlines() if "error" in l), out.strip()[:200])
        return name, ("error" if "internal error" in out else refusal(first)), first
    if rc == 1:
        bad = [l for l in out.splitlines() if "MISMATCH" in l or "first mismatch" in l]
        return name, "wrong result", " | ".join(bad)[:300]
    return name, "error", ("exit %d: " % rc) + out.strip()[:300]


def one(args, name):
    case = os.path.join(args.suite, name)
    work = os.path.join(args.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    data = os.path.join(case, "test_data_set_0")
    cmd = [args.compiler, "-model=" + os.path.join(case, args.model), "-emit-bundle=" + work,
           "-network-name=model", "-bundle-api=dynamic"] + args.compiler_arg
    rc, out = run(cmd, args.timeout)
    bound = []
    files = None
    while rc != 0 and BIND_RE.search(out):
        # Inputs that give shapes or axes: bind them to the test's values, as a user would.
        files = files or {pb_name(os.path.join(data, f)): f for f in os.listdir(data) if f.startswith("input_")}
        more = sorted(set(m for m in BIND_RE.findall(out) if m in files and m not in bound))
        if not more:
            break
        bound += more
        rc, out = run(cmd + ["-bind-input=%s,%s" % (b, os.path.join(data, files[b])) for b in bound], args.timeout)
    compile_out = out
    if rc != 0:
        first = next((l for l in out.splitlines() if "error" in l), out.strip()[:200])
        if rc < 0 or "internal error" in out:
            return name, "error", "compiler crashed: " + first
        return name, refusal(first), first
    exe = os.path.join(work, "run")
    link = [a.replace("{obj}", os.path.join(work, "model.o")).replace("{exe}", exe) for a in shlex.split(args.link)]
    rc, out = run(link, args.timeout)
    if rc != 0:
        return name, "error", "link failed: " + out.strip()[:300]
    run_cmd = shlex.split(args.run_prefix) + [exe, os.path.join(work, "model.weights.bin")]
    rc, out = run(run_cmd + [data] + args.driver_arg, args.timeout)
    verdict = rc and defect_verdict(args, name, rc, out, lambda d: run(run_cmd + [d] + args.driver_arg, args.timeout))
    if verdict:
        return verdict
    if args.verbose:
        print("%s:\n%s\n%s" % (name, compile_out.strip(), out.strip()), flush=True)
    if rc == 0:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return name, "passed", "bound: " + ",".join(bound) if bound else ""
    if rc == 1:
        bad = [l for l in out.splitlines() if "MISMATCH" in l or "first mismatch" in l or "error" in l]
        return name, "wrong result", " | ".join(bad)[:300]
    return name, "error", ("exit %d: " % rc) + out.strip()[:300]


def shard(names, spec):
    """The tests of shard "K/N" of the sorted names: every N-th from the K-th (K from 0); a
    ValueError for a spec that is not K/N with 0 <= K < N."""
    k, _, n = spec.partition("/")
    if not (k.isdigit() and n.isdigit() and int(k) < int(n)):
        raise ValueError("--shard takes K/N with 0 <= K < N (e.g. 0/2: the first of every two tests), not %r" % spec)
    return sorted(names)[int(k)::int(n)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler")
    ap.add_argument("--interp", help="run each test through this run-interp instead of compiling a bundle")
    ap.add_argument("--compiler-arg", action="append", default=[])
    ap.add_argument("--model", default="model.onnx",
                    help="what -model names in each case folder: model.onnx, or a Caffe2 model's folder")
    ap.add_argument("--link", help="link command with {obj} and {exe} placeholders")
    ap.add_argument("--suite", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--must-pass")
    ap.add_argument("--only-must-pass", action="store_true", help="run only the tests listed in --must-pass")
    ap.add_argument("--require-all", action="store_true", help="fail unless every selected test passes")
    ap.add_argument("--run-prefix", default="", help="command the driver runs under, e.g. \"qemu-aarch64 -L /usr/aarch64-linux-gnu\"")
    ap.add_argument("--driver-arg", action="append", default=[], help="extra run-bundle argument, e.g. -max-rel=1e-4")
    ap.add_argument("--verbose", action="store_true", help="print the driver's report for passing tests too")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--filter", default="")
    ap.add_argument("--shard", help="K/N: of the selected tests, sorted, every N-th from the K-th only (the others "
                    "are not run, and say so)")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--keep", action="store_true", help="keep the work folders of passing tests")
    ap.add_argument("--results", help="write 'name<TAB>category<TAB>detail' lines here")
    ap.add_argument("--defects", help="tests whose suite data is wrong (tests/conformance/suite-defects.txt)")
    ap.add_argument("--ort-run", help="command that writes ONNX Runtime's outputs: <cmd> <model.onnx> <case_dir> "
                    "(\"node tests/reference/ort-run.js\"), for --defects entries of kind ort-reference")
    args = ap.parse_args()
    args.defects = read_defects(args.defects)
    if not args.interp and not (args.compiler and args.link):
        ap.error("give --compiler and --link, or --interp")
    run_one = one_interp if args.interp else one

    names = sorted(n for n in os.listdir(args.suite) if os.path.isdir(os.path.join(args.suite, n)))
    must = None
    if args.must_pass:
        with open(args.must_pass) as f:
            must = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    if args.only_must_pass:
        if must is None:
            ap.error("--only-must-pass needs --must-pass")
        names = [n for n in names if n in set(must)]
    if args.filter:
        names = [n for n in names if re.search(args.filter, n)]
    if args.shard:
        try:
            picked = shard(names, args.shard)
        except ValueError as e:
            ap.error(str(e))
        print("shard %s: %d of the %d selected tests; the other %d are not run here" % (
            args.shard, len(picked), len(names), len(names) - len(picked)))
        names = picked
        if must is not None:
            picked = set(picked)
            must = [n for n in must if n in picked]
    os.makedirs(args.work, exist_ok=True)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for i, (name, cat, detail) in enumerate(ex.map(lambda n: run_one(args, n), names)):
            results[name] = (cat, detail)
            if cat != "passed":
                print("%-55s %-28s %s" % (name, cat, detail), flush=True)
            if sys.stdout.isatty():
                print("[%d/%d]" % (i + 1, len(names)), end="\r", flush=True, file=sys.stderr)
    if args.results:
        with open(args.results, "w") as f:
            for n in names:
                f.write("%s\t%s\t%s\n" % (n, results[n][0], results[n][1]))
    counts = {}
    for cat, _ in results.values():
        counts[cat] = counts.get(cat, 0) + 1
    status = 0
    failed = counts.get("wrong result", 0) + counts.get("error", 0)
    if must is not None:
        missing = [n for n in must if n in results and results[n][0] != "passed"]
        for n in missing:
            print("MUST-PASS test failed: %s (%s: %s)" % (n, results[n][0], results[n][1]))
        status |= bool(missing)
        print("must-pass: %d of %d listed tests passed" % (len(must) - len(missing), len(must)))
    if failed:
        print("FAILED: %d test(s) gave a wrong result or an error; a test must pass or be refused at compile time"
              % failed)
        status = 1
    if args.require_all and counts.get("passed", 0) != len(names):
        status = 1
    if not names:
        print("no test selected")
        status = 1
    for cat in CATEGORIES + sorted(set(counts) - set(CATEGORIES)):
        print("%-30s %d" % (cat + ":", counts.get(cat, 0)))
    print("conformance: %d passed, %d failed (wrong result or error), %d refused at compile time, %d other" % (
        counts.get("passed", 0), failed, sum(counts.get(c, 0) for c, _ in REFUSALS) + counts.get("refused (other)", 0),
        counts.get("passed (corrected reference)", 0) + counts.get("invalid test data", 0)))
    return status


if __name__ == "__main__":
    sys.exit(main())
