#!/usr/bin/env python3
"""Where ONNX Runtime's time goes on one model, by the kinds bench/step-profile.py
gives glowc's steps, from ONNX Runtime's own profile (enableProfiling, written by
bench/ort-bench.js when GLOWC_ORT_PROFILE names a file).

    GLOWC_ORT_PROFILE=ort.json node bench/ort-bench.js model.onnx 30 3 1
    bench/ort-profile.py ort.json

Prints "kind ms" per kind (ms per run: the node times of every run but the first,
averaged), conv kinds as step-profile.py names them (Conv.1x1, Conv.dw3x3,
Conv.3x3, ...; ONNX Runtime's FusedConv and its NCHWc convs count as Conv), then
the same by coarse class (coarse(): 1x1 conv, depthwise conv, KxK conv, matmul,
elementwise, other). A profile, not a test."""
import collections
import importlib.util
import json
import os
import sys

_spec = importlib.util.spec_from_file_location("step_profile", os.path.join(os.path.dirname(__file__), "step-profile.py"))
step_profile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(step_profile)


def shapes_of(arg):
    return [list(d.values())[0] for d in arg or []]


def kinds(path):
    """{kind: ms per run} and the number of runs counted."""
    events = json.load(open(path))
    runs = sorted((e["ts"], e["ts"] + e["dur"]) for e in events if e.get("cat") == "Session" and e["name"] == "model_run")
    counted = runs[1:] or runs  # the first run warms up
    by_kind = collections.defaultdict(float)
    for e in events:
        if e.get("cat") != "Node" or not e["name"].endswith("_kernel_time"):
            continue
        if not any(a <= e["ts"] <= b for a, b in counted):
            continue
        args = e.get("args", {})
        op = args.get("op_name", "?")
        ins, outs = shapes_of(args.get("input_type_shape")), shapes_of(args.get("output_type_shape"))
        kind = op
        if op in ("Conv", "FusedConv") and len(ins) > 1 and len(ins[1]) >= 3:
            kind, _ = step_profile.conv_class(ins[0], ins[1], outs[0] if outs else None)
        by_kind[kind] += e["dur"] / 1000.0
    return {k: v / len(counted) for k, v in by_kind.items()}, len(counted)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    by_kind, runs = kinds(sys.argv[1])
    print("%-22s %9s   (ONNX Runtime, %d runs)" % ("kind", "ms", runs))
    for k, ms in sorted(by_kind.items(), key=lambda a: -a[1]):
        print("%-22s %9.3f" % (k, ms))
    coarse = collections.defaultdict(float)
    for k, ms in by_kind.items():
        coarse[step_profile.coarse(k)] += ms
    print()
    for k, ms in sorted(coarse.items(), key=lambda a: -a[1]):
        print("%-22s %9.3f" % (k, ms))


if __name__ == "__main__":
    main()
