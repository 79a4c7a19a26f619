#!/usr/bin/env bash
# The stack the compiler measures (the header's <NET>_STACK_SIZE) against the stack the
# entry uses when it runs (stack-board.c on QEMU's MPS2 boards): never less, and at most
# 256 bytes more (128 for library routines, a return address per call, and frames the
# code generator sized but the run did not touch). The digits model in float on a
# Cortex-M4F (mps2-an386), and in float (software floats: libgcc's routines; weights
# embedded and not, whose kernels differ) and int8 on a Cortex-M0 (thumbv6m, run by
# mps2-an385's Cortex-M3).
#   run-stack.sh <model-compiler> <model-profiler> <glowc source dir> <work dir>
# Exits 77 (ctest: skipped) without arm-none-eabi-gcc or qemu-system-arm.
set -euo pipefail
mc=$1 mp=$2 src=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
for tool in arm-none-eabi-gcc qemu-system-arm; do
  command -v $tool >/dev/null || { echo "skipped: no $tool (scripts/install-deps.sh installs it)"; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
digits=$src/examples/digits
"$mp" -model="$digits/digits.onnx" -input-dataset=input,rawbin,"$digits/calibration" -dump-profile="$work/digits.yml" \
  >"$work/profile.log" 2>&1 || { cat "$work/profile.log"; exit 1; }

status=0
# case <name> <qemu machine> <gcc flags> <model-compiler options...>
case_() {
  local name=$1 machine=$2 flags=$3 dir=$work/$1
  shift 3
  mkdir -p "$dir"
  "$mc" -model="$digits/digits.onnx" -network-name=net -bundle-api=static -emit-bundle="$dir" "$@" \
    >"$dir/compile.log" 2>&1 || { cat "$dir/compile.log"; echo "FAIL: $name: compile"; status=1; return; }
  arm-none-eabi-gcc $flags -mthumb -O2 -nostartfiles -nostdlib -T"$here/stack-board.ld" -Wl,-z,noexecstack -I"$dir" \
    "$here/stack-board.c" "$dir/net.o" -lgcc -lc -lgcc -o "$dir/board.elf" >"$dir/link.log" 2>&1 ||
    { cat "$dir/link.log"; echo "FAIL: $name: link"; status=1; return; }
  local out rc=0
  out=$(timeout 60 qemu-system-arm -M "$machine" -nographic -semihosting-config enable=on,target=native \
        -kernel "$dir/board.elf" </dev/null 2>&1) || rc=$?
  read -r used size < <(sed -n 's/^stack: \([0-9]*\) \([0-9]*\)$/\1 \2/p' <<<"$out")
  if [ $rc != 0 ] || [ -z "${used:-}" ]; then
    echo "$out"; echo "FAIL: $name: the board exited with status $rc"; status=1; return
  fi
  if [ "$used" -le "$size" ] && [ "$size" -le $((used + 256)) ]; then
    echo "ok: $name: used $used bytes of stack, measured at most $size"
  else
    echo "FAIL: $name: used $used bytes of stack, but the header says at most $size (want $used to $((used + 256)))"
    status=1
  fi
}
m4="-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16" m0="-mcpu=cortex-m0 -mfloat-abi=soft"
case_ m4-float mps2-an386 "$m4" -target=thumbv7em-none-eabihf -weights=embedded
case_ m0-float mps2-an385 "$m0" -target=thumbv6m-none-eabi -weights=embedded
case_ m0-float-weights-file mps2-an385 "$m0" -target=thumbv6m-none-eabi -weights=bin
case_ m0-int8 mps2-an385 "$m0" -target=thumbv6m-none-eabi -weights=embedded -load-profile="$work/digits.yml"
exit $status
