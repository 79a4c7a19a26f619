#!/usr/bin/env python3
"""The run prefix of the CUDA PTX tests (run-conformance.py --run-prefix): instead of running
<exe> (no GPU here), checks the PTX in the bundle object beside it, section .glow.ptx of
model.o: present, NUL-terminated, at least one .entry, accepted by ptxas for <sm_XX>, and with
no generic access through a .local address and no pair of accesses that cannot both be aligned
(ptx-lint.py: ptxas takes both, the GPU faults). Exit 0, or 3 with the reason (the harness's
"error").

    ptx-check.py <ptxas> <sm_XX> <exe> <weights> <case_dir> [driver args]

One process a case, with ptxas its only child: the tests run it for some 1,700 bundles, and
the shell pipeline it replaces (objcopy, tr, od, grep and a second Python) cost about as much
as the compile on machines where starting a process is slow.
"""
import importlib.util
import os
import struct
import subprocess
import sys


def elf_section(path, wanted):
    """The bytes of section `wanted` of an ELF file, None if it has none; ValueError if the
    file is not ELF."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        raise ValueError("not an ELF object")
    wide, order = data[4] == 2, "<" if data[5] == 1 else ">"
    if wide:
        shoff, = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x3A)
        header = order + "IIQQQQIIQQ"
    else:
        shoff, = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x2E)
        header = order + "IIIIIIIIII"
    sections = [struct.unpack_from(header, data, shoff + i * shentsize) for i in range(shnum)]
    names = sections[shstrndx]
    for name, _, _, _, offset, size, *_ in sections:
        start = names[4] + name
        if data[start:data.index(b"\0", start)].decode("ascii", "replace") == wanted:
            return data[offset:offset + size]
    return None


def lint(ptx_path):
    """ptx-lint.py's findings (both checks) in the PTX file."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ptx_lint", os.path.join(here, "ptx-lint.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [f"{kind}: {b}" for kind, check in module.CHECKS.items() for b in check(ptx_path)]


def check(ptxas, arch, exe):
    """None when the PTX beside exe passes, else the reason (lines)."""
    folder = os.path.dirname(exe)
    obj = os.path.join(folder, "model.o")
    try:
        raw = elf_section(obj, ".glow.ptx")
    except (OSError, ValueError, struct.error) as e:
        return f"error: cannot read {obj}: {e}"
    if not raw:
        return f"error: {obj} has no .glow.ptx section"
    if raw[-1] != 0:
        return f"error: the PTX in {obj} is not NUL-terminated (cuModuleLoadData reads a C string)"
    ptx = os.path.join(folder, "model.ptx")
    with open(ptx, "wb") as f:
        f.write(raw.replace(b"\0", b""))
    text = raw.decode("utf-8", "replace")
    kernels = sum(1 for line in text.splitlines() if line.startswith(".visible .entry "))
    if not kernels:
        return f"error: the PTX in {obj} has no kernel (.entry)"
    p = subprocess.run([ptxas, f"-arch={arch}", ptx, "-o", os.path.join(folder, "model.cubin")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        out = "\n".join(p.stdout.decode("utf-8", "replace").splitlines()[:20])
        return f"error: ptxas -arch={arch} rejected the PTX of {obj}:\n{out}"
    found = lint(ptx)
    if found:
        return (f"error: the PTX of {obj} has accesses the GPU faults on (local-generic: a generic access"
                " through a .local\naddress; misaligned: loads or stores that cannot all be aligned):\n"
                + "\n".join(found[:5]))
    print(f"PTX of {obj}: {kernels} kernels, accepted by ptxas -arch={arch} (not run: this check never runs it)")
    return None


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    reason = check(argv[1], argv[2], argv[3])
    if reason:
        print(reason)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
