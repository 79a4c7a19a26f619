"""Finds PTX loads and stores that cannot all be aligned.

A PTX access of N bytes (ld.local.v4.u32: 16) must be at an address that is a
multiple of N; the GPU stops the kernel with CUDA_ERROR_MISALIGNED_ADDRESS when it
is not, and ptxas accepts such PTX. Two accesses through the same value of one
register, at offsets a and b, with sizes S and T (powers of two), can both be
aligned only if a and b are congruent modulo min(S, T). LLVM 19's NVPTX backend
breaks that for a `load <16 x i8>, align 1` (an unaligned 16-byte vector in a
kernel): it emits ld.v4.u32 at [%r+-3], [%r+-2], [%r+-1] and [%r] for four
overlapping loads. Within one basic block, between writes of the base register,
every pair of accesses through it is checked, so this finds that without a GPU
and never flags PTX that could run (it may miss accesses whose base differs).

check(path): each offending pair (file, function, lines); run by ptx-lint.py.
"""
import re
import sys

MEM = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:ld|st)\.[\w.]+)\s+(.*?);")
DEF = re.compile(r"^\s*(?:@!?%\w+\s+)?[a-z][\w.]*\s+(%\w+)\s*,")
ENTRY = re.compile(r"^\.(?:visible\s+|weak\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?(\w+)")
LABEL = re.compile(r"^\s*\$?\w+:")
ADDR = re.compile(r"\[\s*(%\w+)\s*(?:\+\s*(-?\d+))?\s*\]")
TYPE = re.compile(r"^[bsuf](8|16|32|64|128)$")


def size_of(op):
    """Bytes an ld/st moves: element bits / 8 times the vector count."""
    parts = op.split(".")
    vec, bits = 1, None
    for p in parts[1:]:
        if p in ("v2", "v4", "v8"):
            vec = int(p[1:])
        m = TYPE.match(p)
        if m:
            bits = int(m.group(1))
    return vec * bits // 8 if bits else None


def check(path):
    bad = []
    func, seen = "?", {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            m = ENTRY.match(line)
            if m:
                func, seen = m.group(1), {}
                continue
            if LABEL.match(line) or line.strip() == "}":
                seen = {}  # a new block: a register may hold another value on entry
                continue
            m = MEM.match(line)
            if m:
                op, args = m.groups()
                a = ADDR.search(args)
                size = size_of(op)
                if a and size and size & (size - 1) == 0:
                    base, off = a.group(1), int(a.group(2) or 0)
                    for off2, size2, no2, text2 in seen.get(base, []):
                        if (off - off2) % min(size, size2):
                            bad.append(f"{path}:{no}: {func}: {line.strip()} and line {no2}: {text2}: "
                                       f"offsets {off} and {off2} through {base} cannot both be aligned "
                                       f"({size} and {size2} bytes)")
                    seen.setdefault(base, []).append((off, size, no, line.strip()))
                if op.startswith("st."):
                    continue
                # a load writes its destination register(s): handled below
            d = DEF.match(line)
            if d:
                seen.pop(d.group(1), None)
            for r in re.findall(r"\{([^}]*)\}", line.split(",")[0] if line.lstrip().startswith("ld.") else ""):
                for reg in r.split(","):
                    seen.pop(reg.strip(), None)
    return bad
