#!/usr/bin/env bash
# Models on a Cortex-M under qemu-system-arm (label: cross). examples/cortex-m,
# built against the glowc that prepare.sh installed with
# toolchains/arm-none-eabi-<cpu>.cmake (one configure and build), runs on the
# QEMU board for the core:
#   digits-classify  the digits model in float: examples/digits/expected.txt's
#                    predictions (ONNX Runtime's)
#   digits-int8      the same model in int8 (prepare.sh's profile): the same
#                    predictions, and each sample's output bytes those of the
#                    same bundle compiled for this machine
#   kws              an int8 TFLite DS-CNN (make-kws.py): the output bytes of
#                    the bundle compiled for this machine, which are checked
#                    against Arm NN's (prepare.sh)
# Each runs under -icount shift=0 and prints its instructions per inference;
# the float one also runs without, where it must print no count. A bundle
# object may leave undefined only memcpy, memmove, memset and compiler helpers
# (__aeabi_*, ...), nothing else from the C library. Then digits-int8, relinked
# with a 1 KiB stack, must stop with the startup code's stack overflow report.
# Prints each program's flash and RAM.
#   run-cortex-m.sh <cpu> <glowc source dir> <prepare.sh's work dir> <work dir>
# Exits 77 (ctest: skipped) without arm-none-eabi-gcc or qemu-system-arm, or,
# after the digits checks, when prepare.sh could not make the TFLite model.
set -euo pipefail
cpu=$1 src=$2 common=$3 work=$4
# The board, and the status of the stack overflow report (128 + the exception).
case $cpu in
cortex-m0) machine=microbit overflow=131 ;;    # HardFault: the store below RAM (Armv6-M has no other fault)
cortex-m4) machine=mps2-an386 overflow=132 ;;  # MemManage: the MPU guard below RAM
cortex-m7) machine=mps2-an500 overflow=132 ;;
cortex-m33) machine=mps2-an505 overflow=134 ;; # UsageFault (STKOF): the stack limit register
cortex-m55) machine=mps3-an547 overflow=134 ;;
*) echo "run-cortex-m.sh: no QEMU board for '$cpu'"; exit 2 ;;
esac
for tool in arm-none-eabi-gcc qemu-system-arm; do
  command -v $tool >/dev/null || { echo "skipped: no $tool (scripts/install-deps.sh installs it)"; exit 77; }
done
[ -x "$common/prefix/bin/model-compiler" ] || { echo "no glowc in $common/prefix: the test cross.cortex-m-prepare installs it"; exit 1; }
tree=$work/build
rm -rf "$work"
mkdir -p "$work"
run() { # <log> <command...>: quiet unless it fails
  local log=$1; shift
  "$@" >"$log" 2>&1 || { cat "$log"; echo "failed: $*"; exit 1; }
}
kws=()
[ -f "$common/kws/kws.tflite" ] && kws=(-DKWS_MODEL="$common/kws/kws.tflite")
run "$work/configure.log" cmake -S "$src/examples/cortex-m" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$common/prefix" \
  -DCMAKE_TOOLCHAIN_FILE="$src/toolchains/arm-none-eabi-$cpu.cmake" -DDIGITS_PROFILE="$common/digits.yml" "${kws[@]}"
run "$work/build.log" cmake --build "$tree"

check_undefined() { # <bundle object>
  local undefined libc
  undefined=$(arm-none-eabi-nm -u "$1" | awk '{print $NF}')
  libc=$(grep -vE '^(memcpy|memmove|memset|__[A-Za-z0-9_]+)$' <<<"$undefined" || true)
  [ -z "$libc" ] || { echo "$1 calls the C library:" $libc; exit 1; }
}

run_qemu() { # <program> [qemu options]: sets out and rc
  local elf=$tree/$1.elf
  shift
  rc=0
  out=$(timeout 120 qemu-system-arm -M $machine -nographic -semihosting-config enable=on,target=native "$@" \
        -kernel "$elf" </dev/null 2>&1) || rc=$?
}

check_run() { # <program>: under -icount, status 0; prints its summary lines
  run_qemu $1 -icount shift=0 -append icount
  [ $rc = 0 ] || { echo "$out"; echo "$1: qemu-system-arm exited with status $rc"; exit 1; }
  grep -E '^([0-9]+ of [0-9]+ correct|stack|ticks|instructions)' <<<"$out" | sed "s/^/$1: /"
  grep -q '^instructions per inference: [0-9]*$' <<<"$out" || { echo "$1: no instruction count under -icount"; exit 1; }
}

check_predictions() { # <program>
  local i=0 want
  while read -r want; do
    grep -qx "sample $i: predicted $want (label [0-9]*)" <<<"$out" || { echo "$1: sample $i: expected prediction $want"; exit 1; }
    i=$((i + 1))
  done <"$src/examples/digits/expected.txt"
  echo "$1: all $i predictions match ONNX Runtime's"
}

check_host() { # <program> <host output>: the same result lines and output bytes
  diff <(grep -E '^(sample|output)' "$2") <(grep -E '^(sample|output)' <<<"$out") >"$work/$1.diff" ||
    { cat "$work/$1.diff"; echo "$1: the output differs from the same bundle's on this machine ($2)"; exit 1; }
  echo "$1: $(grep -c '^output' "$2") outputs byte-identical to the bundle compiled for this machine"
}

sizes() { # <program> <bundle folder> <network name>: flash and RAM of the program, from its last run
  local elf=$tree/$1.elf obj=$tree/$2/$3.o h=$tree/$2/$3.h code weights flash data bss act mut used stack
  read -r code weights < <(arm-none-eabi-size -A "$obj" |
    awk '$1 ~ /^\.text/ {c += $2} $1 ~ /^\.rodata\.glow/ {w += $2} END {print c + 0, w + 0}')
  read -r flash data bss < <(arm-none-eabi-size -A "$elf" | awk '
    $1 ~ /^\.(text|rodata|rodata\.glow|ARM\.extab|ARM\.exidx|data)$/ {f += $2}
    $1 == ".data" {d = $2} $1 == ".bss" {b = $2} END {print f, d + 0, b + 0}')
  act=$(sed -n 's/^#define [A-Z0-9_]*_ACTIVATIONS_MEM_SIZE \([0-9]*\)$/\1/p' "$h")
  mut=$(sed -n 's/^#define [A-Z0-9_]*_MUTABLE_MEM_SIZE \([0-9]*\)$/\1/p' "$h")
  read -r used stack < <(sed -n 's/^stack: \([0-9]*\) of \([0-9]*\) bytes used$/\1 \2/p' <<<"$out")
  echo "size $1: flash $flash bytes (bundle: code $code, weights $weights);" \
       "RAM $((data + bss + used)) bytes (.data+.bss $((data + bss)), of which activations $act and mutable $mut;" \
       "stack $used used of $stack)"
}

check_undefined "$tree/digits.bundle/digits.o"
run_qemu digits-classify
[ $rc = 0 ] || { echo "$out"; echo "digits-classify: qemu-system-arm exited with status $rc"; exit 1; }
check_predictions digits-classify
! grep -q '^instructions' <<<"$out" || { echo "digits-classify: counted instructions without -icount"; exit 1; }
check_run digits-classify
sizes digits-classify digits.bundle digits

check_undefined "$tree/digits_int8.bundle/digits.o"
check_run digits-int8
check_predictions digits-int8
check_host digits-int8 "$common/host/digits-int8.txt"
sizes digits-int8 digits_int8.bundle digits

if [ ${#kws[@]} = 1 ]; then
  check_undefined "$tree/kws_int8.bundle/kws.o"
  check_run kws
  check_host kws "$common/host/kws.txt"
  sizes kws kws_int8.bundle kws
fi

run "$work/small-stack-configure.log" cmake -DSTACK_SIZE=1024 "$tree"
run "$work/small-stack-build.log" cmake --build "$tree" --target digits-int8
run_qemu digits-int8
[ $rc = $overflow ] && grep -q '^fault: .*: stack overflow' <<<"$out" ||
  { echo "$out"; echo "with a 1 KiB stack: expected a stack overflow report and status $overflow, got status $rc"; exit 1; }
echo "with a 1 KiB stack: $(grep '^fault' <<<"$out")"

if [ ${#kws[@]} = 0 ]; then
  echo "kws: $(cat "$common/kws/skipped" 2>/dev/null || echo 'skipped: prepare.sh made no TFLite model')"
  exit 77
fi
