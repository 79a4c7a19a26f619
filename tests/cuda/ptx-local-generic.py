"""Finds generic loads and stores through local-window addresses in PTX.

In PTX, %SPL (mov.u64 %SPL, __local_depot<N>) is an address in the .local state
space; a generic ld/st (no state space) needs cvta.local first (%SP). A generic
access whose address comes from %SPL without that conversion reads or writes some
other memory: on the GPU it stops the kernel with CUDA_ERROR_ILLEGAL_ADDRESS (LLVM
19's NVPTX backend emits this for a variable-index extractelement of a vector held
in registers, expanded through a stack temporary). ptxas accepts such PTX, so this
check is what finds it without a GPU.

check(path): each offending instruction (file, function, line); run by ptx-lint.py.
"""
import re
import sys

SPACES = {"local", "global", "shared", "param", "const"}
DEF = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.]*)\s+(%[\w]+)\s*,\s*(.*?);")
MEM = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:ld|st)\.[\w.]+)\s+(.*?);")
ENTRY = re.compile(r"^\.(?:visible\s+|weak\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?(\w+)")
ADDR = re.compile(r"\[\s*(%\w+)")
REGS = re.compile(r"%\w+")


def check(path):
    bad = []
    func, local = "?", set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            m = ENTRY.match(line)
            if m:
                func, local = m.group(1), {"%SPL"}
                continue
            m = MEM.match(line)
            if m:
                op, args = m.groups()
                a = ADDR.search(args)
                if a and a.group(1) in local and not SPACES & set(op.split(".")):
                    bad.append(f"{path}:{no}: {func}: generic {op} through local address {a.group(1)}: {line.strip()}")
                continue  # a loaded value is data: it is not marked
            m = DEF.match(line)
            if not m:
                continue
            op, dst, srcs = m.groups()
            # Registers are virtual and (but for loop moves) written once: a register
            # is marked when any write to it derives from a marked one, except through
            # cvta.local, whose result is a generic address.
            if any(r in local for r in REGS.findall(srcs)) and not re.match(r"cvta\.(?!to\.)", op):
                local.add(dst)
    return bad
