#!/usr/bin/env python3
"""Where a bundle's time goes, step by step and by kind of step.

    model-compiler -model=M.onnx -emit-bundle=out -network-name=model -bundle-api=dynamic \\
        -dump-graph-DAG=out/graph.dot
    (build out/bench from bench/bench-bundle.c as bench/run-bench.sh does)
    perf record -e cpu-clock -o out/perf.data out/bench out/model.weights.bin 40 3 1
    bench/step-profile.py out/graph.dot out/perf.data <median ms> [top N]

Each step of a bundle is a function named `model.step<i>.<Op>`; its share of the
samples in steps (those in Winograd's shared units, glow_ks_wino_unit_*, added to
the ConvWinograd steps by their multiply-adds) times the median latency gives its
milliseconds. Steps are
matched to the graph's nodes in order by op name (views such as Reshape have no
step). float32 Convs are classed as depthwise (dw), pointwise (1x1) or by kernel
size, with their GFLOP/s; other steps by op. A profile, not a test: cpu-clock
sampling works on VMs without hardware counters. QLinearConv steps are classed
the same way (GFLOP/s there counts int8 multiply-adds as two operations).
"""
import collections
import re
import subprocess
import sys


def graph_nodes(dot):
    """[(node id, op)] in the dot file's order, {node id: [input shapes]} and
    {node id: first output shape}."""
    nodes, shapes, outs = [], collections.defaultdict(list), {}
    for line in open(dot):
        m = re.match(r'\s*n(\d+) \[label="\{(\w+)\|', line)
        if m:
            nodes.append((m.group(1), m.group(2)))
            continue
        m = re.match(r'\s*([vn])(\d+) -> n(\d+) \[label=".*\\n\w+\[([\d,]*)\]"\];', line)
        if m:
            shape = [int(v) for v in m.group(4).split(',') if v]
            shapes[m.group(3)].append(shape)
            if m.group(1) == 'n':
                outs.setdefault(m.group(2), shape)
    return nodes, shapes, outs


def step_shares(data):
    """{step index: (percent of samples, op)} from perf report, and the percent in
    Winograd's shared units (glow_ks_wino_unit_*: compiled once per bundle, out of
    line, and called by every ConvWinograd step: 20% of squeezenet1_1's samples)."""
    out = subprocess.run(['perf', 'report', '-i', data, '--sort', 'symbol', '--stdio'],
                         capture_output=True, text=True, check=True).stdout
    shares, wino = {}, 0.0
    for line in out.splitlines():
        m = re.match(r'\s*([\d.]+)%\s+\[\.\]\s+\w+\.step(\d+)\.(\w+)', line)
        if m:
            shares[int(m.group(2))] = (float(m.group(1)), m.group(3))
        m = re.match(r'\s*([\d.]+)%\s+\[\.\]\s+glow_ks_wino_unit_\w+', line)
        if m:
            wino += float(m.group(1))
    return shares, wino


def conv_class(x, w, y):
    """The kind of a float32 Conv of input shape x, weight shape w and output
    shape y (None: unknown, the input's size is taken), and its multiply-adds."""
    pixels = 1
    for v in (y or x)[2:]:
        pixels *= v
    taps = 1
    for v in w[2:]:
        taps *= v
    k = 'x'.join(map(str, w[2:]))
    kind = 'dw' + k if w[1] == 1 and x[1] > 1 else '1x1' if taps == 1 else k
    return 'Conv.' + kind, w[0] * w[1] * taps * pixels


ELEMENTWISE = {"Add", "Sub", "Mul", "Div", "Relu", "Clip", "Sigmoid", "HardSigmoid", "HardSwish", "LeakyRelu",
               "Tanh", "Erf", "Sqrt", "Pow", "Neg", "Exp", "Max", "Min", "Sum", "PRelu", "Cast", "Gelu", "QuickGelu",
               "BiasGelu", "FastGelu", "QuantizeLinear", "DequantizeLinear", "QLinearAdd", "QLinearMul",
               "QLinearSigmoid", "QLinearLeakyRelu", "Identity"}


def coarse(kind):
    """The issue's classes of a kind: 1x1 conv, depthwise conv, KxK conv, matmul,
    elementwise, other (pooling, softmax, norms, concat, layout reorders)."""
    op, _, k = kind.partition(".")
    if op in ("Conv", "QLinearConv", "FusedConv", "ConvWinograd", "ConvMaxPool"):  # ConvMaxPool: a KxK conv and its pool
        return "depthwise conv" if k.startswith("dw") else "1x1 conv" if k == "1x1" else "KxK conv"
    if op in ("Gemm", "MatMul", "FusedMatMul", "FusedGemm", "QLinearMatMul", "MatMulInteger"):
        return "matmul"
    return "elementwise" if op in ELEMENTWISE else "other"


def step_rows(dot, data, total_ms):
    """[(step, kind, ms, multiply-adds, input shapes)] of a bundle's profile. The
    samples in Winograd's shared units go to the ConvWinograd steps in proportion
    to their multiply-adds; the steps' milliseconds are their shares of the samples
    in steps and units (not in loading the weights) times the median latency."""
    nodes, shapes, outs = graph_nodes(dot)
    shares, wino = step_shares(data)
    rows, j, matched = [], 0, set()
    # Steps with samples, in order, each matched to the next node of its op; then the
    # ConvWinograd nodes that had none of their own (a step that only calls the shared
    # units: resnet50's), which still take their part of the units' samples.
    steps = [(s,) + shares[s] for s in sorted(shares)]
    if wino:
        steps += [(None, 0.0, 'ConvWinograd')]
    for s, pct, op in steps:
        if s is None:
            rest = [k for k in range(len(nodes)) if nodes[k][1] == op and k not in matched]
            steps += [(-1, 0.0, op)] * len(rest)
            j = rest[0] if rest else len(nodes)
            continue
        while j < len(nodes) and (nodes[j][1] != op or j in matched):
            j += 1
        if j == len(nodes) and s == -1:
            continue
        if j == len(nodes):
            sys.exit('step %d (%s) matches no node left in the graph: wrong dot file?' % (s, op))
        matched.add(j)
        nid = nodes[j][0]
        ins = shapes[nid]
        j += 1
        cls, macs = op, 0
        wi = {'Conv': 1, 'QLinearConv': 3, 'ConvWinograd': 1}.get(op)  # the weight's input
        if wi and len(ins) > wi and len(ins[wi]) >= 3:
            w = ins[wi]
            # int8 weights packed by passes/pack-weights.c: [M][K1..][C rounded up to 4] (groups of 1 here)
            if op == 'QLinearConv' and len(w) == len(ins[0]) and w[-1] % 4 == 0 and w[-1] == (ins[0][1] + 3) // 4 * 4:
                w = [w[0], ins[0][1]] + w[1:-1]
            if op == 'ConvWinograd':  # U: M x C x 6 x 6, the transform of 3x3 filters
                w = w[:2] + [3, 3]
            cls, macs = conv_class(ins[0], w, outs.get(nid))
            cls = cls.replace('Conv', op, 1)
        rows.append((s, cls, pct, macs, [ins[0], ins[wi or 1]] if len(ins) > (wi or 1) else ins))
    wmacs = sum(r[3] for r in rows if r[1].startswith('ConvWinograd'))
    if wino and not wmacs:
        sys.exit('samples in glow_ks_wino_unit_* but no ConvWinograd step: wrong dot file?')
    rows = [(s, cls, pct + (wino * macs / wmacs if cls.startswith('ConvWinograd') else 0), macs, ins)
            for s, cls, pct, macs, ins in rows]
    in_steps = sum(r[2] for r in rows)
    return [(s, cls, pct * total_ms / in_steps if in_steps else 0, macs, ins) for s, cls, pct, macs, ins in rows]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rows = step_rows(sys.argv[1], sys.argv[2], float(sys.argv[3]))
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 15
    by_class = collections.defaultdict(float)
    for r in rows:
        by_class[r[1]] += r[2]
    print('%-22s %9s' % ('kind', 'ms'))
    for cls, ms in sorted(by_class.items(), key=lambda a: -a[1]):
        print('%-22s %9.3f' % (cls, ms))
    print('\n%-8s %-22s %9s %8s  %s' % ('step', 'kind', 'ms', 'GFLOP/s', 'input shapes'))
    for s, cls, ms, macs, ins in sorted(rows, key=lambda r: -r[2])[:top]:
        gf = '%8.1f' % (2 * macs / ms / 1e6) if macs and ms > 0 else '%8s' % '-'
        print('%-8s %-22s %9.3f %s  %s' % (s if s >= 0 else '-', cls, ms, gf, ins))


if __name__ == '__main__':
    main()
