#!/usr/bin/env python3
"""Where the time goes, glowc against ONNX Runtime, on one model at one thread:
the time by class of step (1x1 conv, depthwise conv, KxK conv, matmul, elementwise,
other) on each side, glowc's GFLOP/s per conv class, and that of all its conv steps
against the core's peak.
bench/run-bench.sh prints this per model with GLOWC_BENCH_PROFILE=1.

    bench/where-time-goes.py <graph.dot> <perf.data> <glowc ms> <ort.json> <ort ms> <peak GFLOP/s>

glowc's side: bench/step-profile.py (perf cpu-clock samples per step, times the
median latency). ONNX Runtime's: its own profile (bench/ort-profile.py), whose
node times carry the profiler's cost (some microseconds a node), so each class
is its share of the profiled node time times ONNX Runtime's unprofiled median.
A profile, not a test."""
import collections
import importlib.util
import os
import sys


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(__file__), file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    op = load("ort_profile", "ort-profile.py")
    sp = op.step_profile  # the module ort-profile.py loaded
    dot, data, g_ms, ort_json, o_ms, peak = sys.argv[1:]
    g_ms, o_ms, peak = float(g_ms), float(o_ms), float(peak)
    glowc, macs_of = collections.defaultdict(float), collections.defaultdict(int)
    conv_ms, conv_macs = 0.0, 0
    for _, kind, ms, macs, _ in sp.step_rows(dot, data, g_ms):
        c = sp.coarse(kind)
        glowc[c] += ms
        macs_of[c] += macs
        if c.endswith("conv") and macs:
            conv_ms += ms
            conv_macs += macs
    ort_kinds, _ = op.kinds(ort_json)
    ort = collections.defaultdict(float)
    for k, ms in ort_kinds.items():
        ort[sp.coarse(k)] += ms
    scale = o_ms / sum(ort.values()) if ort else 0
    print("  %-16s %9s %9s %13s" % ("class", "glowc_ms", "ort_ms", "glowc_GFLOP/s"))
    for c in sorted(set(glowc) | set(ort), key=lambda c: -(glowc.get(c, 0) + ort.get(c, 0) * scale)):
        gf = "%13.1f" % (2 * macs_of[c] / glowc[c] / 1e6) if macs_of.get(c) and glowc.get(c) else "%13s" % "-"
        print("  %-16s %9.3f %9.3f %s" % (c, glowc.get(c, 0), ort.get(c, 0) * scale, gf))
    if conv_ms:
        gf = 2 * conv_macs / conv_ms / 1e6
        print("  glowc conv steps: %.1f GFLOP/s, %.0f%% of the core's %.1f" % (gf, 100 * gf / peak, peak))


if __name__ == "__main__":
    main()
