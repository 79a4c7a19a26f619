#!/usr/bin/python3
"""Rewrites a glowc profile the way Glow names its entries, as test data for -load-profile.

    glow-names.py <glowc profile.yml> <model.onnx> <out.yml> [--drop NAME]

Glow names a profile entry "<node name>:<result>" after a node of its own graph, after its
loader, graph optimizations and lowering (read from Glow's sources: ProtobufLoader's
loadOperatorName, legalizeName, Module::uniqueName, ONNXModelLoader, GraphOptimizer, Lower):
node names legalized (characters outside [A-Za-z0-9_] become '_'), an unnamed ONNX node named
<op type>_<first output>, and per ONNX op:
  Conv           B__1 (the input transposed to NHWC: the input's range), B__2 (the result);
                 a BatchNormalization right after is folded in: B__2 has its range
  *Pool          B (the input transposed), B__1 (the result)
  Relu           B__1 and B__1_max (made again when transposes sink, then lowered to a Max),
                 and a zero splat
  Gemm           B_TransposeB (the weights), B__1_dot (before the bias), B__1_bias, B__1, B
  Clip           B.minClip (an intermediate), B__1
  Add, Flatten   B__1
  others         B
plus the graph inputs under their legalized names, every initializer (a constant) and a
transpose left by the optimizer. The decoys carry other ranges than the value glowc needs,
so taking one of them shows up as a different bundle. This script is written from that
reading of Glow, independently of compiler/quant/profile-glow-names.c.

--drop NAME leaves out the entry NAME (to check that a missing one is reported).
"""
import re
import sys

import onnx
from onnx import numpy_helper


def legalize(s):
    s = re.sub(r"[^A-Za-z0-9_]", "_", s)
    return "A" + s if not s or s[0].isdigit() else s


def read_glowc(path):
    """{value name: (min, max, [counts])} from glowc's own deterministic YAML."""
    text = open(path).read()
    out = {}
    for m in re.finditer(r"- NodeOutputName: '(.*?)'\n  Min: (\S+)\n  Max: (\S+)\n  Histogram: \[(.*?)\]", text, re.S):
        name = m.group(1).replace("''", "'")
        assert name.endswith(":0"), name
        out[name[:-2]] = (m.group(2), m.group(3), m.group(4).split(","))
    return out


def main():
    args = sys.argv[1:]
    drop = None
    if "--drop" in args:
        i = args.index("--drop")
        drop = args[i + 1]
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    stats = read_glowc(args[0])
    graph = onnx.load(args[1]).graph
    entries = []  # (name, min, max, counts)

    def add(name, st):
        entries.append((name, st[0], st[1], st[2]))

    def decoy(lo, hi):
        return ("%.9g" % lo, "%.9g" % hi, ["1", "0", "0", "1"])

    consumers = {}
    for n in graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    for i in graph.input:
        if i.name in stats:
            add(legalize(i.name) + ":0", stats[i.name])
    splats = 0
    for n in graph.node:
        b = legalize(n.name or "%s_%s" % (n.op_type, n.output[0]))
        out = n.output[0]
        if n.op_type == "BatchNormalization":
            continue  # folded into the Conv before it
        if n.op_type == "Conv":
            users = consumers.get(out, [])
            if len(users) == 1 and users[0].op_type == "BatchNormalization":
                out = users[0].output[0]
        st = stats.get(out)
        if st is None:
            continue  # not a float value glowc profiles (a constant, folded away)
        src = stats.get(n.input[0]) if n.input else None
        if n.op_type == "Conv":
            if src:
                add(b + "__1:0", src)
            add(b + "__2:0", st)
        elif n.op_type.endswith("Pool"):
            if src:
                add(b + ":0", src)
            add(b + "__1:0", st)
        elif n.op_type == "Relu":
            add(b + "__1:0", st)
            add(b + "__1_max:0", st)
            add("zero" + ("__%d" % splats if splats else "") + ":0", decoy(0, 0))
            splats += 1
        elif n.op_type == "Gemm":
            add(b + "_TransposeB:0", decoy(-0.5, 0.5))
            add(b + "__1_dot:0", decoy(float(st[0]) - 1, float(st[1]) + 1))
            for name in (b + "__1_bias:0", b + "__1:0", b + ":0"):
                add(name, st)
        elif n.op_type == "Clip":
            add(b + ".minClip:0", src or decoy(-1, 1))
            add(b + "__1:0", st)
        elif n.op_type in ("Add", "Flatten"):
            add(b + "__1:0", st)
        else:
            add(b + ":0", st)
    for t in graph.initializer:
        a = numpy_helper.to_array(t)
        if a.dtype.kind == "f" and a.size:
            add(legalize(t.name) + ":0", decoy(float(a.min()), float(a.max())))
    add("tranpose:0", decoy(-3, 3))
    with open(args[2], "w") as f:
        f.write("--- \nGlowToolsVersion: ''\n...\n--- \nGraphPreLowerHash: 0x0123456789ABCDEF\n...\n--- \n")
        for name, lo, hi, counts in entries:
            if name == drop:
                continue
            f.write("- NodeOutputName:  '%s'\n  Min:             %s\n  Max:             %s\n"
                    "  Histogram:       [ %s ]\n" % (name, lo, hi, ", ".join(c.strip() for c in counts)))
        f.write("...\n")


if __name__ == "__main__":
    main()
