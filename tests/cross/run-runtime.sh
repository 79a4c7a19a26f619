#!/usr/bin/env bash
# The runtime library's unit test (tests/unit/test-runtime.c, against the digits bundle) built for
# a cross target and run under qemu-user: the runtime and the bundle ABI as a program on that
# target sees them (on 32-bit Arm, size_t is 32 bits wide and the areas' sizes are not).
#   run-runtime.sh <model-compiler> <triple> <target gcc> <qemu> <sysroot> <glowc source> <work dir>
set -euo pipefail
mc=$1 triple=$2 cc=$3 qemu=$4 sysroot=$5 src=$6 work=$7
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$mc" -model="$src/examples/digits/digits.onnx" -emit-bundle=. -network-name=digits -bundle-api=dynamic \
      -target="$triple"
"$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -I. -I"$src/runtime" \
      "$src/tests/unit/test-runtime.c" "$src/runtime/runtime.c" digits.o -lm -o test-runtime
"$qemu" -L "$sysroot" ./test-runtime digits.weights.bin
