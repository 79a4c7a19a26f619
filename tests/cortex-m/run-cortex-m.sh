#!/usr/bin/env bash
# The digits model on a Cortex-M (label: cross): examples/cortex-m, built
# against an installed glowc with toolchains/arm-none-eabi-<cpu>.cmake, runs
# under qemu-system-arm (mps2-an386 for cortex-m4, mps2-an500 for cortex-m7) and
# must print examples/digits/expected.txt's predictions; the bundle object may
# leave undefined only memcpy, memmove, memset and compiler helpers (__aeabi_*,
# ...), nothing else from the C library. Then, relinked with a 1 KiB stack, it
# must stop with the startup code's stack overflow report (MemManage: 128 + 4).
#   run-cortex-m.sh <cpu> <glowc build dir> <glowc source dir> <work dir>
# Exits 77 (ctest: skipped) without arm-none-eabi-gcc or qemu-system-arm.
set -euo pipefail
cpu=$1 build=$2 src=$3 work=$4
case $cpu in
cortex-m4) machine=mps2-an386 ;;
cortex-m7) machine=mps2-an500 ;;
*) echo "run-cortex-m.sh: no QEMU board for '$cpu'"; exit 2 ;;
esac
for tool in arm-none-eabi-gcc qemu-system-arm; do
  command -v $tool >/dev/null || { echo "skipped: no $tool (scripts/install-deps.sh installs it)"; exit 77; }
done
prefix=$work/prefix tree=$work/build
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$prefix" >/dev/null
run() { # <log> <command...>: quiet unless it fails
  local log=$1; shift
  "$@" >"$log" 2>&1 || { cat "$log"; echo "failed: $*"; exit 1; }
}
run "$work/configure.log" cmake -S "$src/examples/cortex-m" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_TOOLCHAIN_FILE="$src/toolchains/arm-none-eabi-$cpu.cmake"
run "$work/build.log" cmake --build "$tree"

elf=$tree/digits-classify.elf
undefined=$(arm-none-eabi-nm -u "$tree/digits.bundle/digits.o" | awk '{print $NF}')
echo "undefined in digits.o:" $undefined
libc=$(grep -vE '^(memcpy|memmove|memset|__[A-Za-z0-9_]+)$' <<<"$undefined" || true)
[ -z "$libc" ] || { echo "digits.o calls the C library:" $libc; exit 1; }
arm-none-eabi-size -A "$elf" | grep -E '^\.(text|rodata\.glow|rodata|data|bss|stack) '

run_qemu() { # sets out and rc
  rc=0
  out=$(timeout 120 qemu-system-arm -M $machine -nographic -semihosting-config enable=on,target=native \
        -kernel "$elf" </dev/null 2>&1) || rc=$?
  echo "$out"
}
run_qemu
[ $rc = 0 ] || { echo "qemu-system-arm exited with status $rc"; exit 1; }
i=0
while read -r want; do
  grep -qx "sample $i: predicted $want (label [0-9]*)" <<<"$out" || { echo "sample $i: expected prediction $want"; exit 1; }
  i=$((i + 1))
done <"$src/examples/digits/expected.txt"
echo "all $i predictions match ONNX Runtime's"

run "$work/small-stack-configure.log" cmake -DSTACK_SIZE=1024 "$tree"
run "$work/small-stack-build.log" cmake --build "$tree"
run_qemu
[ $rc = 132 ] && grep -q '^fault: MemManage.*: stack overflow' <<<"$out" ||
  { echo "with a 1 KiB stack: expected a stack overflow report and status 132, got status $rc"; exit 1; }
