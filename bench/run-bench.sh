#!/usr/bin/env bash
# Benchmarks glowc bundles against ONNX Runtime, side by side in one run, at
# batch 1, on the models of tests/models/gen-models.py (random weights).
#
#   bench/run-bench.sh <build dir> [model...]
#     default models: resnet18 resnet50 mobilenet_v2 squeezenet1_1 efficientnet_b0
#                     googlenet transformer mlp
#   GLOWC_BENCH_MCPU     -mcpu for the bundles (default: none given, glowc's own default)
#   GLOWC_BENCH_ITERS    timed runs per measurement (default: 30; the median is kept)
#   GLOWC_BENCH_ROUNDS   rounds of glowc then ONNX Runtime, alternated (default: 3); each
#                        side's latency is the median of its rounds' medians, so that a
#                        busy spell of the host falls on both sides rather than one
#   GLOWC_BENCH_THREADS  thread counts to measure (default: "1 2"); a bundle for N > 1
#                        threads is compiled with -num-threads=N
#   GLOWC_BENCH_PROFILE  1: also where the time goes, per model at one thread: each class
#                        of step (1x1, depthwise and KxK convs, matmul, elementwise,
#                        other) in glowc (perf samples, bench/step-profile.py) and in
#                        ONNX Runtime (its own profile, bench/ort-profile.py), and
#                        glowc's conv GFLOP/s (bench/where-time-goes.py); needs perf
#   GLOWC_BENCH_PIN      the CPU that every one-thread run of either side, and the peak,
#                        runs on (default: the last one; "" for none): a VM's vCPUs can
#                        run at different speeds (on the Zen 5 VM one was 25% slower than
#                        the other for an hour: squeezenet1_1 3.7 against 4.7 ms), and an
#                        unpinned run lands on either, a side's median on the luck of it
#   GLOWC_BENCH_INT8     models also measured as int8 bundles (default: resnet18
#                        mobilenet_v2), quantized with a profile of 32 random images
#                        (tests/accuracy/random-inputs.py), "" for none
#
# Prints the machine and its fp32 peak (bench/fma-peak.c: FMA chains on one core,
# measured in this run), then per model: the multiply-add work (bench/model-flops.py),
# the compile time, glowc's and ONNX Runtime 1.30's median latency at each thread
# count and their ratio glowc/ORT (below 1: glowc is faster), and glowc's one-thread
# GFLOP/s as a share of the peak; the geometric mean of the ratios; then the int8
# bundles against the fp32 ones. Nothing here is a test: run it on a quiet machine.
set -euo pipefail
build=$(cd "$1" && pwd)
shift
models=("${@:-resnet18 resnet50 mobilenet_v2 squeezenet1_1 efficientnet_b0 googlenet transformer mlp}")
read -r -a models <<<"${models[*]}"
src=$(cd "$(dirname "$0")/.." && pwd)
work=$build/bench
iters=${GLOWC_BENCH_ITERS:-30}
rounds=${GLOWC_BENCH_ROUNDS:-3}
read -r -a threads <<<"${GLOWC_BENCH_THREADS:-1 2}"
read -r -a int8 <<<"${GLOWC_BENCH_INT8-resnet18 mobilenet_v2}"
pin=${GLOWC_BENCH_PIN-$(($(nproc) - 1))}
# on <threads> command...: the command, on CPU $pin where it runs one thread.
on() {
  local t=$1
  shift
  if [ "$t" -eq 1 ] && [ -n "$pin" ]; then taskset -c "$pin" "$@"; else "$@"; fi
}
mc=$build/compiler/driver/model-compiler
cpu_args=()
[ -n "${GLOWC_BENCH_MCPU:-}" ] && cpu_args=(-mcpu="$GLOWC_BENCH_MCPU")
mkdir -p "$work"

/usr/bin/python3 "$src/tests/models/gen-models.py" "$work/models" "${models[@]}" >/dev/null
clang-19 -O2 -march=native -ffp-contract=fast "$src/bench/fma-peak.c" -o "$work/fma-peak"
peak=$(on 1 "$work/fma-peak" | awk '{print $2}')
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; ONNX Runtime 1.30.0"
echo "fp32 peak of one core: $peak GFLOP/s ($(on 1 "$work/fma-peak" | cut -d' ' -f3-))"
echo "bundles: -mcpu=${GLOWC_BENCH_MCPU:-(the default)}; batch 1; per side, the median of $rounds rounds' medians of $iters runs (rounds alternate glowc and ONNX Runtime); one-thread runs on CPU ${pin:-(any)}"

# compile <model> <out dir> [options...]: prints the seconds it took.
compile() {
  local m=$1 out=$2
  shift 2
  mkdir -p "$out"
  local t0 t1
  t0=$(date +%s.%N)
  "$mc" -model="$work/models/$m/model.onnx" -emit-bundle="$out" -network-name=model -bundle-api=dynamic \
    "${cpu_args[@]}" "$@"
  t1=$(date +%s.%N)
  cc -O2 -pthread -I"$src/runtime" "$src/bench/bench-bundle.c" "$src/runtime/runtime.c" "$src/runtime/thread-pool.c" "$out/model.o" -o "$out/bench"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

# glowc <out dir> <threads>: median ms.
glowc_ms() { on "$2" "$1/bench" "$1/model.weights.bin" "$iters" 3 "$2" | awk '{print $2}'; }
ort_ms() { on "$2" node "$src/bench/ort-bench.js" "$1" "$iters" 3 "$2" | awk '{print $2}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

header="$(printf '%-16s %7s %9s' model gflop compile_s)"
for t in "${threads[@]}"; do
  header+="$(printf ' %10s %10s %7s' "glowc_${t}t" "ort_${t}t" "ratio")"
done
header+="$(printf ' %9s %6s' gflops_1t peak%)"
echo
echo "$header"
declare -A logsum
for t in "${threads[@]}"; do logsum[$t]=0; done
declare -A f32_1t ort_1t
for m in "${models[@]}"; do
  flops=("$src/bench/model-flops.py" "$work/models/$m/model.onnx")
  if ! /usr/bin/python3 "${flops[@]}" >/dev/null 2>&1; then # shapes ONNX does not infer: glowc's
    mkdir -p "$work/$m"
    "$mc" -model="$work/models/$m/model.onnx" -dump-after=infer-fold -emit-bundle="$work/$m/shapes" 2>"$work/$m/graph.txt" >/dev/null
    flops+=("$work/$m/graph.txt")
  fi
  gflop=$(/usr/bin/python3 "${flops[@]}" | awk '{print $2}')
  line="$(printf '%-16s %7.3f' "$m" "$gflop")"
  first=1
  share=""
  for t in "${threads[@]}"; do
    out=$work/$m/fp32-${t}t
    opts=()
    [ "$t" -gt 1 ] && opts=(-num-threads="$t")
    [ "$t" -eq 1 ] && opts=(-dump-graph-DAG="$out/graph.dot") # step-profile.py's map of the steps
    c=$(compile "$m" "$out" "${opts[@]}")
    [ "$first" -eq 1 ] && line+="$(printf ' %9s' "$c")"
    gs=() os=()
    for ((r = 0; r < rounds; r++)); do
      gs+=("$(glowc_ms "$out" "$t")")
      os+=("$(ort_ms "$work/models/$m/model.onnx" "$t")")
    done
    g=$(median "${gs[@]}")
    o=$(median "${os[@]}")
    r=$(awk -v g="$g" -v o="$o" 'BEGIN { printf "%.3f", g / o }')
    logsum[$t]=$(awk -v s="${logsum[$t]}" -v r="$r" 'BEGIN { printf "%.6f", s + log(r) }')
    line+="$(printf ' %10s %10s %7s' "$g" "$o" "$r")"
    if [ "$t" -eq 1 ]; then
      f32_1t[$m]=$g
      ort_1t[$m]=$o
      share="$(awk -v f="$gflop" -v g="$g" -v p="$peak" 'BEGIN { printf " %9.1f %5.1f%%", f / g * 1e3, f / g * 1e3 / p * 100 }')"
    fi
    first=0
  done
  echo "$line${share:-}"
done
line="$(printf '%-16s %7s %9s' geomean "" "")"
for t in "${threads[@]}"; do
  line+="$(awk -v s="${logsum[$t]}" -v n="${#models[@]}" 'BEGIN { printf " %10s %10s %7.3f", "", "", exp(s / n) }')"
done
echo "$line"

if [ "${GLOWC_BENCH_PROFILE:-0}" = 1 ] && [ -n "${f32_1t[${models[0]}]:-}" ]; then
  echo
  echo "where the time goes at one thread (ms per run; ONNX Runtime's classes: shares of its profiled node time x its median)"
  for m in "${models[@]}"; do
    out=$work/$m/fp32-1t
    n=$(awk -v ms="${f32_1t[$m]}" 'BEGIN { n = int(2000 / ms) + 1; print n < 20 ? 20 : n }') # 2 s of samples
    perf record -q -e cpu-clock -o "$out/perf.data" "$out/bench" "$out/model.weights.bin" "$n" 3 1 >/dev/null 2>&1
    GLOWC_ORT_PROFILE="$out/ort-profile.json" node "$src/bench/ort-bench.js" "$work/models/$m/model.onnx" "$iters" 3 1 >/dev/null
    echo "$m (glowc ${f32_1t[$m]} ms, ONNX Runtime ${ort_1t[$m]} ms):"
    /usr/bin/python3 "$src/bench/where-time-goes.py" "$out/graph.dot" "$out/perf.data" "${f32_1t[$m]}" \
      "$out/ort-profile.json" "${ort_1t[$m]}" "$peak"
  done
fi

[ "${#int8[@]}" -eq 0 ] && exit 0
echo
printf '%-16s %12s %12s %12s\n' model fp32_1t_ms int8_1t_ms fp32/int8
for m in "${int8[@]}"; do
  q=$work/$m/int8
  mkdir -p "$q"
  /usr/bin/python3 "$src/tests/accuracy/random-inputs.py" "$work/models/$m/model.onnx" "$q/calibration" 32 >/dev/null
  "$build/compiler/driver/model-profiler" -model="$work/models/$m/model.onnx" \
    -input-dataset=input,rawbin,"$q/calibration" -dump-profile="$q/profile.yml" >/dev/null
  compile "$m" "$q" -load-profile="$q/profile.yml" >/dev/null
  [ -n "${f32_1t[$m]:-}" ] || compile "$m" "$work/$m/fp32-1t" >/dev/null
  fs=() qs=()
  for ((r = 0; r < rounds; r++)); do # alternated, as above
    fs+=("$(glowc_ms "$work/$m/fp32-1t" 1)")
    qs+=("$(glowc_ms "$q" 1)")
  done
  f=$(median "${fs[@]}")
  i8=$(median "${qs[@]}")
  awk -v m="$m" -v f="$f" -v q="$i8" 'BEGIN { printf "%-16s %12s %12s %12.2f\n", m, f, q, f / q }'
done
