#!/usr/bin/env python3
"""Finds, without a GPU, PTX that ptxas accepts and the GPU faults on.

local-generic: a generic ld/st (no state space) through an address in the .local
window. %SPL (mov.u64 %SPL, __local_depot<N>) is a .local address; a generic access
needs cvta.local first (%SP). Without it the access reads or writes some other memory
and the kernel stops with CUDA_ERROR_ILLEGAL_ADDRESS (LLVM 19's NVPTX backend emits
this for a variable-index extractelement of a vector held in registers, expanded
through a stack temporary).

misaligned: accesses that cannot all be aligned. A PTX access of N bytes
(ld.local.v4.u32: 16) must be at a multiple of N, or the kernel stops with
CUDA_ERROR_MISALIGNED_ADDRESS. Two accesses through the same value of one register,
at offsets a and b, with sizes S and T (powers of two), can both be aligned only if
a and b are congruent modulo min(S, T). LLVM 19's NVPTX backend breaks that for a
`load <16 x i8>, align 1`: ld.v4.u32 at [%r+-3], [%r+-2], [%r+-1] and [%r]. Pairs
are compared within one basic block, between writes of the base register, so this
never flags PTX that could run (it may miss a lone misaligned access).

  ptx-lint.py [--only local-generic|misaligned] <file.ptx>...
Exit 0 when nothing is found, 1 with each finding (check, file, function, line).
"""
import re
import sys

SPACES = {"local", "global", "shared", "param", "const"}
DEF = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.]*)\s+(%[\w]+)\s*,\s*(.*?);")
MEM = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:ld|st)\.[\w.]+)\s+(.*?);")
ENTRY = re.compile(r"^\.(?:visible\s+|weak\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?(\w+)")
LABEL = re.compile(r"^\s*\$?\w+:")
ADDR = re.compile(r"\[\s*(%\w+)\s*(?:\+\s*(-?\d+))?\s*\]")
TYPE = re.compile(r"^[bsuf](8|16|32|64|128)$")
REGS = re.compile(r"%\w+")


def lines(path):
    """(line number, line, function, MEM match or None, DEF match or None) of a PTX file."""
    func = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            m = ENTRY.match(line)
            if m:
                func = m.group(1)
            yield no, line, func, bool(m), MEM.match(line), DEF.match(line)


def local_generic(path):
    bad, local = [], set()
    for no, line, func, entry, mem, d in lines(path):
        if entry:
            local = {"%SPL"}
        elif mem:
            op, args = mem.groups()
            a = ADDR.search(args)
            if a and a.group(1) in local and not SPACES & set(op.split(".")):
                bad.append(f"{path}:{no}: {func}: generic {op} through local address {a.group(1)}: {line.strip()}")
            # a loaded value is data: it is not marked
        elif d:
            op, dst, srcs = d.groups()
            # Registers are virtual and (but for loop moves) written once: a register
            # is marked when any write to it derives from a marked one, except through
            # cvta.local, whose result is a generic address.
            if any(r in local for r in REGS.findall(srcs)) and not re.match(r"cvta\.(?!to\.)", op):
                local.add(dst)
    return bad


def size_of(op):
    """Bytes an ld/st moves: element bits / 8 times the vector count, None if untyped."""
    vec, bits = 1, None
    for p in op.split(".")[1:]:
        if p in ("v2", "v4", "v8"):
            vec = int(p[1:])
        m = TYPE.match(p)
        if m:
            bits = int(m.group(1))
    return vec * bits // 8 if bits else None


def misaligned(path):
    bad, seen = [], {}  # seen: base register -> [(offset, size, line number, text)]
    for no, line, func, entry, mem, d in lines(path):
        if entry or LABEL.match(line) or line.strip() == "}":
            seen = {}  # a new function or block: a register may hold another value on entry
            continue
        if mem:
            op, args = mem.groups()
            a, size = ADDR.search(args), size_of(op)
            if a and size and size & (size - 1) == 0:
                base, off = a.group(1), int(a.group(2) or 0)
                for off2, size2, no2, text2 in seen.get(base, []):
                    if (off - off2) % min(size, size2):
                        bad.append(f"{path}:{no}: {func}: {line.strip()} and line {no2}: {text2}: offsets {off} "
                                   f"and {off2} through {base} cannot both be aligned ({size} and {size2} bytes)")
                seen.setdefault(base, []).append((off, size, no, line.strip()))
            written = REGS.findall(args.split("[")[0]) if op.startswith("ld.") else []  # a load's destinations
        else:
            written = [d.group(2)] if d else []
        for r in written:
            seen.pop(r, None)
    return bad


CHECKS = {"local-generic": local_generic, "misaligned": misaligned}


def main(argv):
    args, kinds = argv[1:], list(CHECKS)
    if len(args) >= 2 and args[0] == "--only" and args[1] in CHECKS:
        args, kinds = args[2:], [args[1]]
    if not args or args[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = [f"{k}: {b}" for k in kinds for p in args for b in CHECKS[k](p)]
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
