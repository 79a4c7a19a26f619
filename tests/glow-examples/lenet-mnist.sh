#!/usr/bin/env bash
# Glow's examples/bundles/lenet_mnist, its command lines from its CMakeLists.txt with only the
# tools' paths changed: a float bundle (-g, static API), a profile by image-classifier over the
# digit PNGs, an int8 bundle from it; each linked with our client (clients/lenet-mnist.cpp) and
# run on the held-out digits. Every top-1 must be ONNX Runtime's on the same image, the float
# confidences ORT's probabilities, and at least 18 of the 20 digits right.
#   lenet-mnist.sh <model-compiler> <image-classifier> <generated dir> <work dir>
set -euo pipefail
source "$(dirname "$0")/common.sh"
model_compiler=$(abspath "$1") image_classifier=$(abspath "$2") gen=$(abspath "$3") work=$(abspath "$4")

# The CMake variables of Glow's lenet_mnist/CMakeLists.txt.
GLOW_BINARY_DIR=$work
CMAKE_RUNTIME_OUTPUT_DIRECTORY=${GLOW_BINARY_DIR}/bundles
LENET_MNIST_BUNDLE_DIR=${GLOW_BINARY_DIR}/examples/bundles/lenet_mnist
MODEL_INPUT_NAME="data"
IMAGES=$gen/lenet_mnist/images
BUNDLE_OUTPUT_DIRECTORY=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/lenet_mnist
QUANTIZED_BUNDLE_OUTPUT_DIRECTORY=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/quantized_lenet_mnist

rm -rf "$work"
mkdir -p "$BUNDLE_OUTPUT_DIRECTORY" "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY" "$LENET_MNIST_BUNDLE_DIR"
# In place of the wget of predict_net.pb and init_net.pb: the fixture's Caffe2 LeNet.
ln -s "$gen/lenet_mnist/lenet_mnist" "$LENET_MNIST_BUNDLE_DIR/lenet_mnist"
# add_custom_command runs in the current binary dir, the bundle dir (the quantized compile
# reads profile.yml from there).
cd "$LENET_MNIST_BUNDLE_DIR"

step "float bundle" \
  "$model_compiler" -g -model=${LENET_MNIST_BUNDLE_DIR}/lenet_mnist \
    -model-input=${MODEL_INPUT_NAME},float,[1,1,28,28] \
    -backend=CPU -emit-bundle=${BUNDLE_OUTPUT_DIRECTORY} \
    -bundle-api=static
step "profile" \
  "$image_classifier" ${IMAGES}/*.png -i=0to1 \
    -dump-profile=${LENET_MNIST_BUNDLE_DIR}/profile.yml \
    -m=${LENET_MNIST_BUNDLE_DIR}/lenet_mnist -model-input-name=${MODEL_INPUT_NAME}
step "int8 bundle" \
  "$model_compiler" -g -load-profile=profile.yml -model=${LENET_MNIST_BUNDLE_DIR}/lenet_mnist \
    -model-input=${MODEL_INPUT_NAME},float,[1,1,28,28] \
    -backend=CPU -emit-bundle=${QUANTIZED_BUNDLE_OUTPUT_DIRECTORY} \
    -bundle-api=static

check_quantized "$BUNDLE_OUTPUT_DIRECTORY/lenet_mnist.weights.bin" "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY/lenet_mnist.weights.bin"
build_client "$BUNDLE_OUTPUT_DIRECTORY/LeNetMnistBundle" "$BUNDLE_OUTPUT_DIRECTORY" lenet-mnist.cpp \
  "$BUNDLE_OUTPUT_DIRECTORY/lenet_mnist.o"
build_client "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY/QuantizedLeNetMnistBundle" "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY" \
  lenet-mnist.cpp "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY/lenet_mnist.o"
"$BUNDLE_OUTPUT_DIRECTORY/LeNetMnistBundle" "$IMAGES"/*.png >"$work/float.txt"
"$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY/QuantizedLeNetMnistBundle" "$IMAGES"/*.png >"$work/int8.txt"
check_results "$work/float.txt" "$gen/lenet_mnist/expected.txt" "lenet_mnist float" float 18
check_results "$work/int8.txt" "$gen/lenet_mnist/expected.txt" "lenet_mnist int8" int8 18
echo "PASS: lenet_mnist"
