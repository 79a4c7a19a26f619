#!/usr/bin/env bash
# Glow's examples/bundles/bundle_instrument, its command line from its CMakeLists.txt with only the
# tool's path changed: lenet_mnist with -g, -instrument-debug (rawbin files) and -instrument-ir,
# linked with our client (clients/bundle-instrument.cpp: glow_instrument_before/after) and run on
# two digits. Checks: the callbacks come in matched pairs with IDs 0..N-1 and operands inside the
# bundle's areas (the client's exit status); N is the number of steps instrument-ir.info lists;
# the operands the client dumps in -instrument-debug's numbering are, file for file, the bytes
# -instrument-debug wrote; the digit is right.
#   bundle-instrument.sh <model-compiler> <generated dir> <work dir>
set -euo pipefail
source "$(dirname "$0")/common.sh"
model_compiler=$(abspath "$1") gen=$(abspath "$2") work=$(abspath "$3")

# The CMake variables of Glow's bundle_instrument/CMakeLists.txt.
GLOW_BINARY_DIR=$work
CMAKE_RUNTIME_OUTPUT_DIRECTORY=${GLOW_BINARY_DIR}/bundles
LENET_MNIST_BUNDLE_DIR=${GLOW_BINARY_DIR}/examples/bundles/bundle_instrument
MODEL_INPUT_NAME="data"
IMAGES=$gen/lenet_mnist/images
BUNDLE_OUTPUT_DIRECTORY=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/bundle_instrument
INSTRUMENT_DEBUG_DIR=${BUNDLE_OUTPUT_DIRECTORY}/instrument-debug-data
INSTRUMENT_IR_DIR=${BUNDLE_OUTPUT_DIRECTORY}/instrument-ir-data

rm -rf "$work"
mkdir -p "$BUNDLE_OUTPUT_DIRECTORY" "$INSTRUMENT_DEBUG_DIR" "$INSTRUMENT_IR_DIR" "$LENET_MNIST_BUNDLE_DIR"
ln -s "$gen/lenet_mnist/lenet_mnist" "$LENET_MNIST_BUNDLE_DIR/lenet_mnist"
cd "$LENET_MNIST_BUNDLE_DIR"

step "instrumented bundle" \
  "$model_compiler" -g -model=${LENET_MNIST_BUNDLE_DIR}/lenet_mnist \
    -model-input=${MODEL_INPUT_NAME},float,[1,1,28,28] \
    -backend=CPU -emit-bundle=${BUNDLE_OUTPUT_DIRECTORY} \
    -bundle-api=static \
    -instrument-debug -instrument-debug-format=rawbin \
    -instrument-debug-dir=${INSTRUMENT_DEBUG_DIR} \
    -instrument-ir

# Glow writes instrument-ir.info into the working folder, glowc beside the bundle.
info=
for f in "$LENET_MNIST_BUNDLE_DIR/instrument-ir.info" "$BUNDLE_OUTPUT_DIRECTORY/instrument-ir.info"; do
  [ -f "$f" ] && info=$f && break
done
[ -n "$info" ] || { echo "FAIL: no instrument-ir.info in $LENET_MNIST_BUNDLE_DIR or $BUNDLE_OUTPUT_DIRECTORY"; exit 1; }
steps=$(grep -c '^ID *: *[0-9]' "$info" || true)
echo "$info: $steps instrumented steps"
[ "$steps" -gt 0 ] || { echo "FAIL: $info lists no step"; exit 1; }
[ -f "$INSTRUMENT_DEBUG_DIR/instrument-debug.info" ] ||
  { echo "FAIL: -instrument-debug wrote no $INSTRUMENT_DEBUG_DIR/instrument-debug.info at compile time"; exit 1; }
grep -q '^Format: rawbin' "$INSTRUMENT_DEBUG_DIR/instrument-debug.info" ||
  { echo "FAIL: instrument-debug.info does not say 'Format: rawbin'"; exit 1; }

build_client "$BUNDLE_OUTPUT_DIRECTORY/BundleInstrument" "$BUNDLE_OUTPUT_DIRECTORY" bundle-instrument.cpp \
  "-DINSTRUMENT_IR_DIR=\"$INSTRUMENT_IR_DIR\"" "$BUNDLE_OUTPUT_DIRECTORY/lenet_mnist.o"

for png in 3_30.png 7_9.png; do
  rm -f "$INSTRUMENT_DEBUG_DIR"/data*.bin "$INSTRUMENT_IR_DIR"/data*.bin
  out=$("$BUNDLE_OUTPUT_DIRECTORY/BundleInstrument" "$IMAGES/$png") || { echo "$out"; echo "FAIL: $png: the client found instrumentation errors"; exit 1; }
  echo "$out"
  calls=$(sed -n 's/^Number of instructions: //p' <<<"$out")
  dumps=$(sed -n 's/^Number of data dumps: //p' <<<"$out")
  [ "$calls" = "$steps" ] || { echo "FAIL: $png: $calls instrumented steps ran, $info lists $steps"; exit 1; }
  written=$(find "$INSTRUMENT_DEBUG_DIR" -name 'data*.bin' | wc -l)
  [ "$written" -eq "$dumps" ] ||
    { echo "FAIL: $png: -instrument-debug wrote $written files, the callbacks saw $dumps operands"; exit 1; }
  for f in "$INSTRUMENT_IR_DIR"/data*.bin; do
    cmp -s "$f" "$INSTRUMENT_DEBUG_DIR/$(basename "$f")" ||
      { echo "FAIL: $png: $(basename "$f"): the callbacks' operand differs from -instrument-debug's"; exit 1; }
  done
  echo "$png: $dumps operands, each the bytes -instrument-debug wrote"
  result=$(sed -n 's/^Result: //p' <<<"$out")
  [ "$result" = "${png%%_*}" ] || { echo "FAIL: $png: digit $result"; exit 1; }
done
echo "PASS: bundle_instrument"
