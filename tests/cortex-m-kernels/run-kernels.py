#!/usr/bin/python3
"""The int8 kernels on Cortex-M cores under qemu-system-arm (label: cross).

    run-kernels.py --compiler model-compiler --core m4 --work DIR --cases DIR [--cases DIR ...]
                   [--filter RE] [--bench [--repeat N]]

Every case (an ONNX model with test_data_set_0/{input,output}_N.pb, as tests/quant/gen-cases.py
and gen-cases.py here write them) is compiled into a bundle for the core (-target, -mcpu and
-mattr from CORES below, weights embedded); all the bundles link into one program with
startup.c, which QEMU's board for the core runs once. It prints each case's outputs, which must
equal the expected bytes exactly. Exit status 1 on any difference, 77 (skipped) without
arm-none-eabi-gcc or qemu-system-arm.

--bench times one call of each case (after a first, untimed one) under -icount shift=0, where
QEMU's virtual clock advances 1 ns per instruction: SysTick, at the board's CPU clock, then
counts instructions (ticks x 1e9 / clock). The program measures a loop of known length first
and the clock must agree with it. Prints instructions per call.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

import numpy as np
from onnx import TensorProto, numpy_helper

# core: (glowc target options, gcc options, QEMU board, its CPU clock in Hz, its memory:
# (vector table, code and constants, RAM) as (origin, length)).
MPS2 = ((0x00000000, 1 << 10), (0x00000400, (4 << 20) - (1 << 10)), (0x20000000, 4 << 20))
AN505 = ((0x10000000, 1 << 10), (0x10000400, (4 << 20) - (1 << 10)), (0x38000000, 4 << 20))
CORES = {
    # Armv6-M code on AN385's Cortex-M3: QEMU has no Cortex-M0 board with this memory
    "m0": (["-target=thumbv6m-none-eabi", "-mcpu=cortex-m0"], ["-mcpu=cortex-m0", "-mfloat-abi=soft"],
           "mps2-an385", 25e6, MPS2),
    "m4": (["-target=thumbv7em-none-eabihf", "-mcpu=cortex-m4"], ["-mcpu=cortex-m4", "-mfloat-abi=hard"],
           "mps2-an386", 25e6, MPS2),
    "m4-nodsp": (["-target=thumbv7em-none-eabihf", "-mcpu=cortex-m4", "-mattr=-dsp"],
                 ["-mcpu=cortex-m4", "-mfloat-abi=hard"], "mps2-an386", 25e6, MPS2),
    "m7": (["-target=thumbv7em-none-eabihf", "-mcpu=cortex-m7"], ["-mcpu=cortex-m7", "-mfloat-abi=hard"],
           "mps2-an500", 25e6, MPS2),
    # AN505 and AN547 boot in the Secure state: the Secure aliases of their memories
    "m33": (["-target=thumbv8m.main-none-eabihf", "-mcpu=cortex-m33"], ["-mcpu=cortex-m33", "-mfloat-abi=hard"],
            "mps2-an505", 20e6, AN505),
    "m33-nodsp": (["-target=thumbv8m.main-none-eabihf", "-mcpu=cortex-m33", "-mattr=-dsp"],
                  ["-mcpu=cortex-m33", "-mfloat-abi=hard"], "mps2-an505", 20e6, AN505),
}
AN547 = ((0x10000000, 512 << 10), (0x11000000, 2 << 20), (0x70000000, 16 << 20))  # ITCM, SRAM, DDR
for name, mattr in (("m55", None), ("m55-nomve", "-mve"), ("m55-plain", "-mve,-dsp")):
    CORES[name] = (["-target=thumbv8.1m.main-none-eabihf", "-mcpu=cortex-m55"] +
                   (["-mattr=" + mattr] if mattr else []),
                   ["-mcpu=cortex-m55", "-mfloat-abi=hard"], "mps3-an547", 32e6, AN547)

LINKER_SCRIPT = """ENTRY(Reset_Handler)
MEMORY
{{
  VEC (rx) : ORIGIN = {0:#x}, LENGTH = {1:#x}
  CODE (rx) : ORIGIN = {2:#x}, LENGTH = {3:#x}
  RAM (rwx) : ORIGIN = {4:#x}, LENGTH = {5:#x}
}}
SECTIONS
{{
  .vectors : {{ KEEP(*(.isr_vector)) }} > VEC
  .text : {{ *(.text .text.*) }} > CODE
  .rodata : ALIGN(64) {{ *(.rodata .rodata.*) }} > CODE
  .data : ALIGN(4) {{ __data_start = .; *(.data .data.*) . = ALIGN(4); __data_end = .; }} > RAM AT > CODE
  __data_load = LOADADDR(.data);
  .bss (NOLOAD) : ALIGN(64) {{ __bss_start = .; *(.bss .bss.* COMMON) . = ALIGN(4); __bss_end = .; }} > RAM
  __stack_top = ORIGIN(RAM) + LENGTH(RAM);
}}
"""


def run(cmd, timeout=600):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def load_case(path):
    d = os.path.join(path, "test_data_set_0")
    tensors = {}
    for kind in ("input", "output"):
        tensors[kind] = []
        i = 0
        while os.path.exists(os.path.join(d, "%s_%d.pb" % (kind, i))):
            t = TensorProto()
            with open(os.path.join(d, "%s_%d.pb" % (kind, i)), "rb") as f:
                t.ParseFromString(f.read())
            tensors[kind].append((t.name, numpy_helper.to_array(t)))
            i += 1
    return tensors


def header_symbols(path):
    """{model name: (role, offset, bytes)} from the bundle header's comment."""
    syms = {}
    for m in re.finditer(r'^//\s+(input|output)\s+"([^"]*)" as \S+: \S+, offset (\d+), (\d+) bytes', open(path).read(),
                         re.M):
        syms[m.group(2)] = (m.group(1), int(m.group(3)), int(m.group(4)))
    return syms


def header_size(path, what):
    return int(re.search(r"#define \w+_%s_MEM_SIZE (\d+)" % what, open(path).read()).group(1))


def c_bytes(a):
    b = a.tobytes()
    return ",".join(str(x) for x in b) or "0"


def write_program(path, cases, bench, repeat):
    """main(): each case's inputs copied into the mutable area, the bundle run (timed with
    --bench), its outputs printed as 'out <case> <output> <hex>'."""
    mut = max(c["mutable"] for c in cases)
    act = max(c["activations"] for c in cases)
    src = ['#include "harness.h"']
    for i, c in enumerate(cases):
        src.append('#include "%s"' % c["header"])
        for j, (_, a) in enumerate(c["inputs"]):
            src.append("static const uint8_t in%d_%d[%d] = {%s};" % (i, j, max(a.nbytes, 1), c_bytes(a)))
    src += ["static uint8_t mut[%d] __attribute__((aligned(64)));" % max(mut, 1),
            "static uint8_t act[%d] __attribute__((aligned(64)));" % max(act, 1),
            "static void copy(uint8_t *d, const uint8_t *s, uint32_t n) { while (n--) *d++ = *s++; }",
            "int main(void) {",
            "  int bad = 0;",
            "  h_ticks_start();",
            "  uint64_t t0 = h_ticks();",
            "  h_spin(1000000);",
            '  h_print("spin ");',
            "  h_print_uint(h_ticks() - t0);",
            '  h_print("\\n");']
    for i, c in enumerate(cases):
        net = c["net"]
        for j, (name, a) in enumerate(c["inputs"]):
            src.append("  copy(mut + %d, in%d_%d, %d);" % (c["symbols"][name][1], i, j, a.nbytes))
        call = "%s((uint8_t *)0, mut, act)" % net
        if bench:
            src += ["  bad |= %s;" % call, "  t0 = h_ticks();"]
            src += ["  bad |= %s;" % call] * repeat
            src += ['  h_print("ticks %d ");' % i, "  h_print_uint(h_ticks() - t0);", '  h_print("\\n");']
        else:
            src.append("  bad |= %s;" % call)
        for j, (name, a) in enumerate(c["outputs"]):
            src += ['  h_print("out %d %d ");' % (i, j),
                    "  h_print_hex(mut + %d, %d);" % (c["symbols"][name][1], a.nbytes), '  h_print("\\n");']
    src += ["  return bad;", "}"]
    with open(path, "w") as f:
        f.write("\n".join(src) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--core", required=True, choices=sorted(CORES))
    ap.add_argument("--cases", action="append", required=True, help="a folder of cases (repeatable)")
    ap.add_argument("--filter", default="", help="only the cases whose name matches this regex")
    ap.add_argument("--work", required=True)
    ap.add_argument("--bench", action="store_true", help="time one call of each case (instructions)")
    ap.add_argument("--repeat", type=int, default=1, help="--bench: calls timed together")
    ap.add_argument("--compiler-arg", action="append", default=[])
    a = ap.parse_args()
    for tool in ("arm-none-eabi-gcc", "qemu-system-arm"):
        if not shutil.which(tool):
            print("skipped: no %s (scripts/install-deps.sh installs it)" % tool)
            return 77
    gopts, ccopts, board, clock, mem = CORES[a.core]
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)

    names = []
    for d in a.cases:
        if not os.path.isdir(d):
            print("run-kernels.py: no cases folder %s (run the fixture that writes it)" % d)
            return 1
        names += [(n, os.path.join(d, n)) for n in sorted(os.listdir(d))
                  if os.path.exists(os.path.join(d, n, "model.onnx")) and re.search(a.filter, n)]
    if not names:
        print("run-kernels.py: no case matches '%s'" % a.filter)
        return 1
    cases = []
    for i, (name, path) in enumerate(names):
        net = "k%d" % i
        out = os.path.join(a.work, net)
        cmd = [a.compiler, "-model=" + os.path.join(path, "model.onnx"), "-emit-bundle=" + out, "-network-name=" + net,
               "-weights=embedded"] + gopts + a.compiler_arg
        rc, log = run(cmd)
        if rc:
            print("%s: model-compiler failed (%d):\n%s\n%s" % (name, rc, " ".join(cmd), log))
            return 1
        h = os.path.join(out, net + ".h")
        t = load_case(path)
        cases.append({"name": name, "net": net, "header": h, "obj": os.path.join(out, net + ".o"),
                      "symbols": header_symbols(h), "mutable": header_size(h, "MUTABLE"),
                      "activations": header_size(h, "ACTIVATIONS"), "inputs": t["input"], "outputs": t["output"]})

    prog = os.path.join(a.work, "main.c")
    write_program(prog, cases, a.bench, a.repeat)
    ld = os.path.join(a.work, "board.ld")
    with open(ld, "w") as f:
        f.write(LINKER_SCRIPT.format(mem[0][0], mem[0][1], mem[1][0], mem[1][1], mem[2][0], mem[2][1]))
    elf = os.path.join(a.work, "kernels.elf")
    cmd = (["arm-none-eabi-gcc", "-mthumb"] + ccopts +
           ["-O2", "-std=c11", "-ffreestanding", "-fno-tree-loop-distribute-patterns", "-nostdlib", "-I" + here,
            os.path.join(here, "startup.c"), prog] + [c["obj"] for c in cases] + ["-T", ld, "-Wl,-z,noexecstack", "-lgcc", "-o", elf])
    rc, log = run(cmd)
    if rc:
        print("link failed:\n%s\n%s" % (" ".join(cmd), log))
        return 1
    qemu = ["qemu-system-arm", "-M", board, "-nographic", "-semihosting-config", "enable=on,target=native",
            "-kernel", elf] + (["-icount", "shift=0"] if a.bench else [])
    rc, log = run(qemu, timeout=900)
    if rc:
        print("%s exited with status %d:\n%s" % (" ".join(qemu), rc, log[-4000:]))
        return 1

    got, ticks, spin = {}, {}, None
    for line in log.splitlines():
        f = line.split()
        if len(f) == 4 and f[0] == "out":
            got[(int(f[1]), int(f[2]))] = bytes.fromhex(f[3])
        elif len(f) == 3 and f[0] == "ticks":
            ticks[int(f[1])] = int(f[2])
        elif len(f) == 2 and f[0] == "spin":
            spin = int(f[1])
    per_tick = 1e9 / clock
    if a.bench:  # h_spin(10^6): 2 * 10^6 instructions and a few
        if spin is None or abs(spin * per_tick - 2e6) > 200:
            print("SysTick does not count %g instructions a tick: %s ticks for 2e6 instructions" % (per_tick, spin))
            return 1
    bad = 0
    for i, c in enumerate(cases):
        for j, (name, want) in enumerate(c["outputs"]):
            have = got.get((i, j))
            wb = want.tobytes()
            if have is None:
                print("%s: output %s missing" % (c["name"], name))
                bad += 1
            elif have != wb:
                hv = np.frombuffer(have, want.dtype) if len(have) == len(wb) else None
                diff = np.nonzero(hv != want.reshape(-1))[0] if hv is not None else []
                print("%s: output %s differs: %d of %d elements, first at %s (got %s, want %s)" %
                      (c["name"], name, len(diff), want.size, diff[0] if len(diff) else "?",
                       hv[diff[0]] if len(diff) else "?", want.reshape(-1)[diff[0]] if len(diff) else "?"))
                bad += 1
        if a.bench:
            print("%-32s %12.0f instructions per call" % (c["name"], ticks[i] * per_tick / a.repeat))
    print("%s (%s): %d of %d cases match" % (a.core, board, len(cases) - bad, len(cases)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
