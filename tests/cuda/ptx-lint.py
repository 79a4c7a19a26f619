#!/usr/bin/env python3
"""The PTX checks that find, without a GPU, what ptxas accepts and the GPU faults on:
local-generic (ptx-local-generic.py: generic loads and stores through .local addresses,
CUDA_ERROR_ILLEGAL_ADDRESS) and misaligned (ptx-misaligned.py: accesses through one
register that cannot all be aligned, CUDA_ERROR_MISALIGNED_ADDRESS). One process for
both, since ptx-check.sh runs it on every PTX test.

  ptx-lint.py [--only local-generic|misaligned] <file.ptx>...
Exit 0 when nothing is found, 1 with each finding (check, file, function, line).
"""
import importlib.util
import os
import sys

CHECKS = ("local-generic", "misaligned")


def load(kind):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"ptx-{kind}.py")
    spec = importlib.util.spec_from_file_location(kind.replace("-", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.check


def main(argv):
    args, kinds = argv[1:], CHECKS
    if len(args) >= 2 and args[0] == "--only" and args[1] in CHECKS:
        args, kinds = args[2:], (args[1],)
    if not args or args[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = [f"{k}: {b}" for k in kinds for check in [load(k)] for p in args for b in check(p)]
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
