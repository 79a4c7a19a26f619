#!/usr/bin/env bash
# Glow's examples/bundles/resnet50, its command lines from its CMakeLists.txt with only the tools'
# paths changed: a float bundle (-g, dynamic API), a profile by image-classifier over the photos,
# an int8 bundle from it (-assert-all-nodes-quantized, SoftMax kept in float); each linked with our
# client (clients/resnet50.cpp: symbol table lookups of gpu_0_data and gpu_0_softmax) and run on
# the photos. Every top-1 must be ONNX Runtime's on the same image (0to1, BGR, NCHW) and the float
# confidences ORT's probabilities.
#   resnet50.sh <model-compiler> <image-classifier> <generated dir> <work dir>
set -euo pipefail
source "$(dirname "$0")/common.sh"
model_compiler=$(abspath "$1") image_classifier=$(abspath "$2") gen=$(abspath "$3") work=$(abspath "$4")

# The CMake variables of Glow's resnet50/CMakeLists.txt.
GLOW_BINARY_DIR=$work
CMAKE_RUNTIME_OUTPUT_DIRECTORY=${GLOW_BINARY_DIR}/bundles
RESNET50_BUNDLE_DIR=${GLOW_BINARY_DIR}/examples/bundles/resnet50
MODEL_INPUT_NAME="gpu_0/data"
IMAGES=$gen/resnet50/images
BUNDLE_OUTPUT_DIRECTORY=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/resnet50
QUANTIZED_BUNDLE_OUTPUT_DIRECTORY=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/quantized_resnet50

rm -rf "$work"
mkdir -p "$BUNDLE_OUTPUT_DIRECTORY" "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY" "$RESNET50_BUNDLE_DIR"
# In place of the wget of predict_net.pb and init_net.pb: the fixture's Caffe2 resnet50.
ln -s "$gen/resnet50/resnet50" "$RESNET50_BUNDLE_DIR/resnet50"
# add_custom_command runs in the current binary dir, the bundle dir (the quantized compile
# reads profile.yml from there).
cd "$RESNET50_BUNDLE_DIR"

step "float bundle" \
  "$model_compiler" -g -model=${RESNET50_BUNDLE_DIR}/resnet50 \
    -model-input=${MODEL_INPUT_NAME},float,[1,3,224,224] \
    -backend=CPU -emit-bundle=${BUNDLE_OUTPUT_DIRECTORY} \
    -bundle-api=dynamic
step "profile" \
  "$image_classifier" ${IMAGES}/*.png -i=0to1 \
    -dump-profile=${RESNET50_BUNDLE_DIR}/profile.yml \
    -m=${RESNET50_BUNDLE_DIR}/resnet50 -model-input-name=${MODEL_INPUT_NAME}
step "int8 bundle" \
  "$model_compiler" -g -load-profile=profile.yml -assert-all-nodes-quantized -keep-original-precision-for-nodes=SoftMax \
    -model=${RESNET50_BUNDLE_DIR}/resnet50 \
    -model-input=${MODEL_INPUT_NAME},float,[1,3,224,224] \
    -backend=CPU -emit-bundle=${QUANTIZED_BUNDLE_OUTPUT_DIRECTORY} \
    -bundle-api=dynamic

check_quantized "$BUNDLE_OUTPUT_DIRECTORY/resnet50.weights.bin" "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY/resnet50.weights.bin"
build_client "$BUNDLE_OUTPUT_DIRECTORY/ResNet50Bundle" "$BUNDLE_OUTPUT_DIRECTORY" resnet50.cpp \
  "$BUNDLE_OUTPUT_DIRECTORY/resnet50.o"
build_client "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY/QuantizedResNet50Bundle" "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY" \
  resnet50.cpp "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY/resnet50.o"
# The clients read resnet50.weights.bin from the current folder, as Glow's does.
(cd "$BUNDLE_OUTPUT_DIRECTORY" && step "run float" ./ResNet50Bundle "$IMAGES"/*.png) >"$work/float.txt"
(cd "$QUANTIZED_BUNDLE_OUTPUT_DIRECTORY" && step "run int8" ./QuantizedResNet50Bundle "$IMAGES"/*.png) >"$work/int8.txt"
grep -h "^time:" "$work/float.txt" "$work/int8.txt"
check_results "$work/float.txt" "$gen/resnet50/expected.txt" "resnet50 float" float 0
check_results "$work/int8.txt" "$gen/resnet50/expected.txt" "resnet50 int8" int8 0
echo "PASS: resnet50"
