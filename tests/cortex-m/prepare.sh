#!/usr/bin/env bash
# What every Cortex-M run (run-cortex-m.sh) shares, made once (ctest fixture
# cortex-m, test cross.cortex-m-prepare):
#   <work>/prefix           glowc installed
#   <work>/digits.yml       the quantization profile of digits.onnx (its calibration images)
#   <work>/host/digits-int8.txt   what examples/cortex-m/main.c prints with the int8
#                           digits bundle compiled for this machine (host-board.c)
#   <work>/kws/             make-kws.py's TFLite model, its kws-data.h and Arm NN's outputs,
#                           and host/kws.txt: kws.c's output with the bundle compiled for this
#                           machine, checked against Arm NN's (the boards must print the same
#                           bytes, so they are checked against Arm NN too)
#   <work>/kws/skipped      instead, when make-kws.py cannot run (no pyarmnn, flatc, ...): why
#   prepare.sh <glowc build dir> <glowc source dir> <work dir> <host C compiler> <python> <flatc>
# Exits 77 (ctest: skipped) without arm-none-eabi-gcc or qemu-system-arm.
set -euo pipefail
build=$1 src=$2 work=$3 cc=$4 python=$5 flatc=$6
for tool in arm-none-eabi-gcc qemu-system-arm; do
  command -v $tool >/dev/null || { echo "skipped: no $tool (scripts/install-deps.sh installs it)"; exit 77; }
done
rm -rf "$work"
mkdir -p "$work/host" "$work/kws"
run() { # <log> <command...>: quiet unless it fails
  local log=$1; shift
  "$@" >"$log" 2>&1 || { cat "$log"; echo "failed: $*"; exit 1; }
}
cmake --install "$build" --prefix "$work/prefix" >/dev/null
bin=$work/prefix/bin example=$src/examples/cortex-m digits=$src/examples/digits

# A program of examples/cortex-m on this machine: <name> <model> <program.c> <include dir> [model-compiler options]
host_program() {
  local name=$1 model=$2 program=$3 include=$4 net
  shift 4
  net=$(basename "$program" .c)
  [ "$net" = main ] && net=digits
  run "$work/host/$name.log" "$bin/model-compiler" -model="$model" -emit-bundle="$work/host/$name" \
    -network-name=$net -bundle-api=static -weights=embedded "$@"
  run "$work/host/$name.log" "$cc" -std=c11 -O2 -I"$example" -I"$work/host/$name" -I"$include" "$program" \
    "$example/report.c" "$src/tests/cortex-m/host-board.c" "$work/host/$name/$net.o" -lm -o "$work/host/$name/$name"
  "$work/host/$name/$name" >"$work/host/$name.txt"
}

run "$work/profile.log" "$bin/model-profiler" -model="$digits/digits.onnx" \
  -input-dataset=input,rawbin,"$digits/calibration" -dump-profile="$work/digits.yml"
host_program digits-int8 "$digits/digits.onnx" "$example/main.c" "$digits" -load-profile="$work/digits.yml"
echo "host: $(grep -c '^output' "$work/host/digits-int8.txt") digits int8 outputs"

rc=0
"$python" "$src/tests/cortex-m/make-kws.py" write --tflite-tests "$src/tests/tflite" --flatc "$flatc" \
  --fbs "$src/compiler/importer/tflite.fbs" --out "$work/kws" >"$work/kws.log" 2>&1 || rc=$?
if [ $rc = 77 ]; then
  grep '^skipped:' "$work/kws.log" >"$work/kws/skipped"
  echo "kws: $(cat "$work/kws/skipped")"
  exit 0
fi
[ $rc = 0 ] || { cat "$work/kws.log"; echo "make-kws.py failed"; exit 1; }
grep '^wrote' "$work/kws.log"
host_program kws "$work/kws/kws.tflite" "$example/kws.c" "$work/kws"
"$python" "$src/tests/cortex-m/make-kws.py" check --out "$work/kws" "$work/host/kws.txt"
