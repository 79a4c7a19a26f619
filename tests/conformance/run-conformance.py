#!/usr/bin/env python3
"""Conformance harness: every ONNX node test compiled to a bundle, linked with
the generic driver (tests/driver/run-bundle.c), run and compared.

    run-conformance.py --compiler model-compiler --link "<cc> ... {obj} ... -o {exe}" \
        --suite ../shared/onnx-node-tests --work DIR [--must-pass FILE] [--jobs N] [--filter RE]

For another target (tests/cross), the bundle is compiled for it, linked with
its compiler and run under an emulator:

    run-conformance.py --compiler model-compiler --compiler-arg=-target=aarch64-linux-gnu \
        --link "aarch64-linux-gnu-gcc {obj} <driver built for aarch64> -lm -o {exe}" \
        --run-prefix "qemu-aarch64 -L /usr/aarch64-linux-gnu" --only-must-pass ...

Each test ends in one category: passed, wrong result (it compiled and ran
but an output differs), unsupported (the compiler refused it with an error),
or error (crash, link failure, timeout). Prints one line per test that did
not pass, then the counts. Exit status 1 if a test in --must-pass did not
pass.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
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


def pb_name(path):
    """The name field (8) of a serialized TensorProto."""
    data = open(path, "rb").read()
    i = 0
    while i < len(data):
        key, i = varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            _, i = varint(data, i)
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        elif wire == 2:
            n, i = varint(data, i)
            if field == 8:
                return data[i:i + n].decode("utf-8", "replace")
            i += n
        else:
            return None
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


BIND_RE = re.compile(r"-bind-input=([^,\s]+),")


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
        rc, out = run(cmd[:3] + ["-bind-input=%s,%s" % (b, os.path.join(data, files[b])) for b in bound], args.timeout)
    if args.verbose:
        print("%s:\n%s" % (name, out.strip()), flush=True)
    if rc == 0:
        return name, "passed", "bound: " + ",".join(bound) if bound else ""
    if rc == 3:
        first = next((l for l in out.splitlines() if "error" in l), out.strip()[:200])
        return name, ("error" if "internal error" in out else "unsupported"), first
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
    cmd = [args.compiler, "-model=" + os.path.join(case, "model.onnx"), "-emit-bundle=" + work,
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
        return name, "unsupported", first
    exe = os.path.join(work, "run")
    link = [a.replace("{obj}", os.path.join(work, "model.o")).replace("{exe}", exe) for a in shlex.split(args.link)]
    rc, out = run(link, args.timeout)
    if rc != 0:
        return name, "error", "link failed: " + out.strip()[:300]
    rc, out = run(shlex.split(args.run_prefix) + [exe, os.path.join(work, "model.weights.bin"), data] + args.driver_arg,
                  args.timeout)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler")
    ap.add_argument("--interp", help="run each test through this run-interp instead of compiling a bundle")
    ap.add_argument("--compiler-arg", action="append", default=[])
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
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--keep", action="store_true", help="keep the work folders of passing tests")
    ap.add_argument("--results", help="write 'name<TAB>category<TAB>detail' lines here")
    args = ap.parse_args()
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
    os.makedirs(args.work, exist_ok=True)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for i, (name, cat, detail) in enumerate(ex.map(lambda n: run_one(args, n), names)):
            results[name] = (cat, detail)
            if cat != "passed":
                print("%-55s %-13s %s" % (name, cat, detail), flush=True)
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
    if must is not None:
        missing = [n for n in must if n in results and results[n][0] != "passed"]
        for n in missing:
            print("MUST-PASS test failed: %s (%s: %s)" % (n, results[n][0], results[n][1]))
        status |= bool(missing)
        print("must-pass: %d of %d listed tests passed" % (len(must) - len(missing), len(must)))
    if args.require_all and counts.get("passed", 0) != len(names):
        status = 1
    if not names:
        print("no test selected")
        status = 1
    for cat in ("passed", "wrong result", "unsupported", "error"):
        print("%s: %d" % (cat, counts.get(cat, 0)))
    print("conformance: %d passed, %d failed, %d unsupported" % (
        counts.get("passed", 0), counts.get("wrong result", 0) + counts.get("error", 0), counts.get("unsupported", 0)))
    return status


if __name__ == "__main__":
    sys.exit(main())
