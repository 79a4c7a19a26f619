#!/usr/bin/env bash
# Glow's examples/bundles/bundle_with_extra_objects, its command line from its CMakeLists.txt with
# only the tool's path changed: lenet_mnist with -bundle-objects=test.o, test.o being our own
# (clients/test-msg.c, defining testMsg), in the folder the command runs in. lenet_mnist.o must be
# an archive holding test.o; our client (clients/bundle-with-extra-objects.cpp), linked with
# lenet_mnist.o alone, must print test.o's testMsg and still classify digits.
#   bundle-with-extra-objects.sh <model-compiler> <generated dir> <work dir>
set -euo pipefail
source "$(dirname "$0")/common.sh"
model_compiler=$(abspath "$1") gen=$(abspath "$2") work=$(abspath "$3")

# The CMake variables of Glow's bundle_with_extra_objects/CMakeLists.txt.
GLOW_BINARY_DIR=$work
CMAKE_RUNTIME_OUTPUT_DIRECTORY=${GLOW_BINARY_DIR}/bundles
LENET_MNIST_BUNDLE_DIR=${GLOW_BINARY_DIR}/examples/bundles/bundle_with_extra_objects
MODEL_INPUT_NAME="data"
IMAGES=$gen/lenet_mnist/images
BUNDLE_OUTPUT_DIRECTORY=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/bundle_with_extra_objects

rm -rf "$work"
mkdir -p "$BUNDLE_OUTPUT_DIRECTORY" "$LENET_MNIST_BUNDLE_DIR"
ln -s "$gen/lenet_mnist/lenet_mnist" "$LENET_MNIST_BUNDLE_DIR/lenet_mnist"
cd "$LENET_MNIST_BUNDLE_DIR"
# Glow registers test.o when Glow is built; glowc takes a path (here, the working folder's).
step "test.o" "$CC" -c -O2 -fPIC -o test.o "$CLIENTS/test-msg.c"

step "bundle with test.o" \
  "$model_compiler" -model=${LENET_MNIST_BUNDLE_DIR}/lenet_mnist \
    -model-input=${MODEL_INPUT_NAME},float,[1,1,28,28] \
    -backend=CPU -emit-bundle=${BUNDLE_OUTPUT_DIRECTORY} \
    -bundle-api=static \
    -bundle-objects=test.o

members=$(ar t "$BUNDLE_OUTPUT_DIRECTORY/lenet_mnist.o") ||
  { echo "FAIL: $BUNDLE_OUTPUT_DIRECTORY/lenet_mnist.o is not an archive"; exit 1; }
echo "lenet_mnist.o members:" $members
grep -qx test.o <<<"$members" || { echo "FAIL: lenet_mnist.o does not hold test.o"; exit 1; }

build_client "$BUNDLE_OUTPUT_DIRECTORY/BundleWithExtraObjects" "$BUNDLE_OUTPUT_DIRECTORY" \
  bundle-with-extra-objects.cpp "$BUNDLE_OUTPUT_DIRECTORY/lenet_mnist.o"
out=$("$BUNDLE_OUTPUT_DIRECTORY/BundleWithExtraObjects" "$IMAGES/0_1.png" "$IMAGES/6_8.png")
echo "$out"
[ "$(head -n 1 <<<"$out")" = "testMsg from the extra object test.o, archived with the bundle" ] ||
  { echo "FAIL: the program did not print test.o's testMsg"; exit 1; }
[ "$(sed -n 's/^Result: //p' <<<"$out" | tr '\n' ' ')" = "0 6 " ] || { echo "FAIL: digits wrong"; exit 1; }
echo "PASS: bundle_with_extra_objects"
