#!/usr/bin/env python3
"""-g, -instrument-ir and -instrument-debug on the digits model, from a program's side.

  check-glow-debug.py <check> --mc <model-compiler> --cc <C compiler> --model <digits.onnx>
      --src <tests/glow-debug> [--gdb <gdb>] [--dwarfdump <llvm-dwarfdump>]

<check> is one of:
  g                 compiled with -g: llvm-dwarfdump --verify passes; gdb, run from another
                    folder, stops in the entry and in every step's function (<entry>_step<i>_...),
                    whose backtrace names the step over the entry, both at the step's line of
                    digits.g.txt, and prints that line of the listing (so it found the file).
  instrument-ir     compiled with -instrument-ir: instrument-ir.c's callbacks see every step once,
                    in order, inside the areas; its ids, kinds, operand counts and sizes are those
                    of instrument-ir.info.
  instrument-debug  compiled with -instrument-debug -instrument-debug-format=rawbin into a folder:
                    every file instrument-debug.info lists exists with its tensor's byte size, and
                    the last step's output file holds the program's output bytes. Then txt and
                    console, a bad format refused with nothing written, and with -instrument-ir
                    too, callbacks that dump the operands as Glow's bundle_instrument example does
                    write the very files -instrument-debug writes.
Exit 77 (ctest: skipped) when gdb cannot run a program here.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

SIZES = {"float": 4, "float16": 2, "bfloat16": 2, "float64": 8, "i8": 1, "ui8": 1, "i16": 2, "index32": 4,
         "index64": 8, "bool": 1}
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compile_bundle(a, out, *options):
    os.makedirs(out, exist_ok=True)
    r = run([a.mc, "-model=" + a.model, "-emit-bundle=" + out, "-bundle-api=static", *options])
    if r.returncode:
        sys.exit("model-compiler failed: " + r.stderr)


def link(a, bundle, source, exe):
    r = run([a.cc, "-g", "-I" + bundle, os.path.join(a.src, source), os.path.join(bundle, "digits.o"), "-o", exe])
    if r.returncode:
        sys.exit("linking %s failed: %s" % (source, r.stderr))


def type_bytes(t):
    """Bytes of a tensor of Glow type t: float<1 x 10> is 40."""
    m = re.fullmatch(r"(\w+)<([^>]*)>", t)
    n = 1
    for d in m.group(2).split(" x ") if m.group(2) else []:
        n *= int(d)
    return n * SIZES[m.group(1)]


def check_g(a, work):
    bundle = os.path.join(work, "bundle")
    compile_bundle(a, bundle, "-g")
    listing = open(os.path.join(bundle, "digits.g.txt")).read().splitlines()
    steps = [l for l in listing if l.startswith("step ")]
    check(len(steps) > 3 and listing[0].startswith("digits: %d steps" % len(steps)),
          "the listing has a line per step (%d) after its first" % len(steps))
    if a.dwarfdump:
        r = run([a.dwarfdump, "--verify", os.path.join(bundle, "digits.o")])
        check(r.returncode == 0 and "No errors." in r.stdout,
              "llvm-dwarfdump --verify: " + (r.stdout.strip().splitlines() or ["(nothing)"])[-1])
    else:
        print("skipped: llvm-dwarfdump --verify (no llvm-dwarfdump)")
    exe = os.path.join(bundle, "run-digits")
    link(a, bundle, "run-digits.c", exe)
    elsewhere = os.path.join(work, "elsewhere")
    os.makedirs(elsewhere)
    args = ["--args", exe, os.path.join(bundle, "digits.weights.bin"), "out.bin"]
    names = run([a.gdb, "-batch", "-ex", "info functions ^digits_step", *args], cwd=elsewhere).stdout
    names = sorted(set(re.findall(r"\b(digits_step(\d+)_\w*)\(", names)), key=lambda x: int(x[1]))
    check([int(s) for _, s in names] == list(range(len(steps))),
          "gdb knows a function per step: " + " ".join(n for n, _ in names))
    script = ["set pagination off", "set confirm off", "break digits", "run", "bt"]
    script += ["tbreak " + n for n, _ in names]  # tbreak: a step's loop may come back to its first address
    script += ["while $_isvoid($_exitcode)", "bt", "continue", "end"]
    with open(os.path.join(work, "cmds.gdb"), "w") as f:
        f.write("\n".join(script) + "\n")
    r = run([a.gdb, "-batch", "-x", os.path.join(work, "cmds.gdb"), *args], cwd=elsewhere)
    out = r.stdout + r.stderr
    if "ptrace" in out and "not permitted" in out:
        print("skipped: gdb cannot run a program here (ptrace not permitted)")
        sys.exit(77)
    check(re.search(r"Breakpoint 1, digits \(\) at \S*digits\.g\.txt:\d+", out) is not None,
          "gdb stops in the entry, in digits.g.txt")
    for name, s in names:
        line = int(s) + 2
        frames = re.search(r"#0  %s \(\) at \S*digits\.g\.txt:%d\n#1  0x[0-9a-f]+ in digits \(\) at \S*digits\.g\.txt:%d"
                           % (name, line, line), out)
        check(frames is not None, "step %s: the backtrace is %s over digits, at line %d" % (s, name, line))
        check("\n%d\tstep %s: " % (line, s) in out, "step %s: gdb prints line %d of the listing" % (s, line))
    check(os.path.exists(os.path.join(elsewhere, "out.bin")), "the program ran to its end under gdb")


def check_instrument_ir(a, work):
    bundle = os.path.join(work, "bundle")
    compile_bundle(a, bundle, "-instrument-ir")
    header = open(os.path.join(bundle, "digits.h")).read()
    check("void glow_instrument_before(int id, int kind, int opInp, int opOut, uint8_t **opAddr, int *opSize);"
          in header, "the header declares the callbacks")
    exe = os.path.join(bundle, "instrument-ir")
    link(a, bundle, "instrument-ir.c", exe)
    r = run([exe, os.path.join(bundle, "digits.weights.bin")])
    print(r.stdout, end="")
    check(r.returncode == 0, "instrument-ir.c's own checks")
    seen = [tuple(map(int, re.findall(r"-?\d+", l))) for l in r.stdout.splitlines() if l.startswith("step ")]
    info = open(os.path.join(bundle, "instrument-ir.info")).read().strip().split("\n\n")
    listed = []
    for block in info:
        ident = int(re.search(r"^ID   : (\d+)$", block, re.M).group(1))
        kind = int(re.search(r"^Kind : (\d+) \(\w+\)$", block, re.M).group(1))
        inp = [type_bytes(t) for t in re.findall(r"^Inp\[\d+\] +\w+: +(.+)$", block, re.M)]
        out = [type_bytes(t) for t in re.findall(r"^Out\[\d+\] +\w+: +(.+)$", block, re.M)]
        listed.append((ident, kind, len(inp), len(out), *inp, *out))
    check(len(seen) > 3 and seen == listed,
          "the callbacks saw the steps of instrument-ir.info (id, kind, counts, sizes): %d, %d" % (len(seen), len(listed)))


def debug_files(info):
    """(step's output files, [(file, bytes)]) of instrument-debug.info."""
    files, outs = [], []
    for block in info.split("\n\n")[1:]:
        ops = re.findall(r"^\[\d+\] (\w+): +(data\d{4}\.\w+) +(.+)$", block, re.M)
        files += [(f, type_bytes(t)) for _, f, t in ops]
        outs.append([f for role, f, _ in ops if role.startswith("Dest")])
    return outs, files


def check_instrument_debug(a, work):
    bundle, dumps = os.path.join(work, "bundle"), os.path.join(work, "dumps")
    compile_bundle(a, bundle, "-instrument-debug", "-instrument-debug-format=rawbin", "-instrument-debug-dir=" + dumps)
    info = open(os.path.join(dumps, "instrument-debug.info")).read()
    check(info.startswith("Format: rawbin\n"), "instrument-debug.info names the format")
    outs, files = debug_files(info)
    exe = os.path.join(bundle, "run-digits")
    link(a, bundle, "run-digits.c", exe)
    elsewhere = os.path.join(work, "elsewhere")
    os.makedirs(elsewhere)
    r = run([exe, os.path.join(bundle, "digits.weights.bin"), "out.bin"], cwd=elsewhere)
    check(r.returncode == 0, "the program runs from another folder " + r.stderr)
    check(len(files) > 8 and all(os.path.getsize(os.path.join(dumps, f)) == n for f, n in files
                                 if os.path.exists(os.path.join(dumps, f))),
          "every file of the %d listed has its tensor's byte size" % len(files))
    check(all(os.path.exists(os.path.join(dumps, f)) for f, _ in files), "every listed file was written")
    last = open(os.path.join(dumps, outs[-1][0]), "rb").read()
    check(last == open(os.path.join(elsewhere, "out.bin"), "rb").read(),
          "the last step's output (%s) is the program's output" % outs[-1][0])

    txt, tdumps = os.path.join(work, "txt"), os.path.join(work, "txt-dumps")
    compile_bundle(a, txt, "-instrument-debug", "-instrument-debug-format=txt", "-instrument-debug-dir=" + tdumps)
    link(a, txt, "run-digits.c", os.path.join(txt, "run"))
    run([os.path.join(txt, "run"), os.path.join(txt, "digits.weights.bin"), os.path.join(txt, "out.bin")])
    text = open(os.path.join(tdumps, outs[-1][0].replace(".bin", ".txt"))).read()
    values = [float(v) for v in text.split("\n", 1)[1].split(",") if v.strip()]
    want = list(memoryview(last).cast("f"))
    check(text.startswith("float<1 x 10>\n") and len(values) == 10 and
          all(abs(x - y) <= 1e-6 * max(1.0, abs(y)) for x, y in zip(values, want)),
          "txt: the type, then the output's 10 values")

    con = os.path.join(work, "console")
    compile_bundle(a, con, "-instrument-debug")
    link(a, con, "run-digits.c", os.path.join(con, "run"))
    r = run([os.path.join(con, "run"), os.path.join(con, "digits.weights.bin"), os.path.join(con, "out.bin")],
            cwd=con)
    check(r.stdout.count("shape: ( ") == len(files) and "debug_print.after." in r.stdout
          and not os.path.exists(os.path.join(con, "debug")),
          "console (the default): each tensor printed, no folder made")

    both, bdumps, cdumps = os.path.join(work, "both"), os.path.join(work, "both-dumps"), os.path.join(work, "cb")
    compile_bundle(a, both, "-instrument-ir", "-instrument-debug", "-instrument-debug-format=rawbin",
                   "-instrument-debug-dir=" + bdumps)
    link(a, both, "instrument-ir.c", os.path.join(both, "run"))
    os.makedirs(cdumps)
    r = run([os.path.join(both, "run"), os.path.join(both, "digits.weights.bin"), cdumps])
    same = [f for f, _ in files if os.path.exists(os.path.join(cdumps, f)) and os.path.exists(os.path.join(bdumps, f))
            and open(os.path.join(cdumps, f), "rb").read() == open(os.path.join(bdumps, f), "rb").read()]
    check(r.returncode == 0 and len(same) == len(files) and sorted(os.listdir(cdumps)) == [f for f, _ in files],
          "with -instrument-ir too: the callbacks' dumps are -instrument-debug's files (%d of %d)"
          % (len(same), len(files)))

    bad = os.path.join(work, "bad")
    os.makedirs(bad)
    r = run([a.mc, "-model=" + a.model, "-emit-bundle=" + bad, "-instrument-debug", "-instrument-debug-format=hex"])
    check(r.returncode != 0 and "rawbin" in r.stderr and not os.listdir(bad),
          "a bad format is refused, naming the formats, nothing written: " + r.stderr.strip())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("check", choices=["g", "instrument-ir", "instrument-debug"])
    for opt in ("mc", "cc", "model", "src"):
        p.add_argument("--" + opt, required=True)
    p.add_argument("--gdb", default="")
    p.add_argument("--dwarfdump", default="")
    a = p.parse_args()
    a.gdb = "" if a.gdb.endswith("NOTFOUND") else a.gdb  # CMake's find_program found none
    a.dwarfdump = "" if a.dwarfdump.endswith("NOTFOUND") else a.dwarfdump
    if a.check == "g" and not a.gdb:
        print("skipped: no gdb")
        return 77
    with tempfile.TemporaryDirectory() as work:
        {"g": check_g, "instrument-ir": check_instrument_ir, "instrument-debug": check_instrument_debug}[a.check](a, work)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
