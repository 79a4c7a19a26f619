#!/usr/bin/env bash
# Compile time and peak memory of model-compiler as the graph grows: chains of
# 2n + 1 nodes (bench/gen-chain.py) for each n, so a pass that is quadratic in
# the node count shows as a per-node time that grows with n.
#
#   bench/compile-scaling.sh <build dir> [n...]      (default: 500 1000 2000 4000)
#
# Prints per size: nodes, seconds, peak RSS, milliseconds per node, and the time
# ratio to the previous size (about 2 when linear, since each size doubles).
set -euo pipefail
build=$(cd "$1" && pwd)
shift
sizes=("${@:-500 1000 2000 4000}")
read -r -a sizes <<<"${sizes[*]}"
src=$(cd "$(dirname "$0")/.." && pwd)
work=$build/bench/scaling
mkdir -p "$work"
printf '%8s %10s %12s %10s %8s\n' nodes seconds peak_MiB ms/node ratio
prev=
for n in "${sizes[@]}"; do
  /usr/bin/python3 "$src/bench/gen-chain.py" "$n" "$work/chain$n.onnx"
  mkdir -p "$work/out$n"
  /usr/bin/time -f "%e %M" -o "$work/time$n" "$build/compiler/driver/model-compiler" \
    -model="$work/chain$n.onnx" -emit-bundle="$work/out$n" -network-name=chain
  read -r secs kb <"$work/time$n"
  nodes=$((2 * n + 1))
  ratio=$([ -n "$prev" ] && awk -v a="$secs" -v b="$prev" 'BEGIN{printf "%.2f", a / b}' || echo -)
  awk -v n="$nodes" -v s="$secs" -v k="$kb" -v r="$ratio" \
    'BEGIN{printf "%8d %10.2f %12.1f %10.2f %8s\n", n, s, k / 1024, 1000 * s / n, r}'
  prev=$secs
done
