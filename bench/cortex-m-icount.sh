#!/usr/bin/env bash
# Instructions per inference on each Cortex-M board under QEMU, with the int8 kernels that use
# the core's DSP instructions or MVE against the plain ones (the same bundles compiled with
# -mattr=-dsp / -mattr=-mve, as for parts built without them). qemu-system-arm -icount shift=0
# makes the virtual clock count instructions (1 ns each) and examples/cortex-m reads SysTick,
# which QEMU clocks from it: a proxy for cycles on these in-order cores, not a cycle count
# (no wait states, no pipeline). Deterministic: no need for a quiet machine.
#   bench/cortex-m-icount.sh [glowc build dir] [work dir]
# Prints a Markdown table: board, kernels, digits float, digits int8, kws int8 (the TFLite
# DS-CNN of tests/cortex-m/make-kws.py).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build} work=${2:-$(mktemp -d)}
python=/usr/bin/python3
command -v "$python" >/dev/null || python=python3
echo "preparing (glowc installed, the digits profile, the kws model) in $work" >&2
bash "$src/tests/cortex-m/prepare.sh" "$build" "$src" "$work/common" cc "$python" "$(command -v flatc || echo flatc)" \
  >"$work/prepare.log" 2>&1 || { cat "$work/prepare.log" >&2; exit 1; }
kws=()
[ -f "$work/common/kws/kws.tflite" ] && kws=(-DKWS_MODEL="$work/common/kws/kws.tflite")

count() { # <machine> <elf>: instructions per inference
  timeout 600 qemu-system-arm -M "$1" -nographic -semihosting-config enable=on,target=native -icount shift=0 \
    -append icount -kernel "$2" </dev/null 2>&1 | sed -n 's/^instructions per inference: //p'
}

echo "| board | kernels | digits float | digits int8 | kws int8 |"
echo "|---|---|---|---|---|"
# <core> <QEMU machine> then variants as <name>=<features, ';'-separated>
for spec in "cortex-m0 microbit plain=" \
            "cortex-m4 mps2-an386 DSP= plain=-dsp" \
            "cortex-m7 mps2-an500 DSP= plain=-dsp" \
            "cortex-m33 mps2-an505 DSP= plain=-dsp" \
            "cortex-m55 mps3-an547 MVE= DSP=-mve plain=-mve;-dsp"; do
  read -r core machine variants <<<"$spec"
  for v in $variants; do
    name=${v%%=*} features=${v#*=}
    tree=$work/$core-$name
    echo "building $core ($name kernels)" >&2
    cmake -S "$src/examples/cortex-m" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$work/common/prefix" \
      -DCMAKE_TOOLCHAIN_FILE="$src/toolchains/arm-none-eabi-$core.cmake" -DDIGITS_PROFILE="$work/common/digits.yml" \
      -DBUNDLE_FEATURES="$features" "${kws[@]}" >"$tree.log" 2>&1 && cmake --build "$tree" >>"$tree.log" 2>&1 ||
      { cat "$tree.log" >&2; exit 1; }
    k=n/a
    [ ${#kws[@]} = 0 ] || k=$(count "$machine" "$tree/kws.elf")
    echo "| $core ($machine) | $name${features:+ (-mattr=${features//;/,})} | $(count "$machine" "$tree/digits-classify.elf") |" \
      "$(count "$machine" "$tree/digits-int8.elf") | $k |"
  done
done
