#!/usr/bin/env bash
# Glow's examples/bundles/bundle_with_multiple_entries: one bundle, testBundle, with the entries
# testMainEntry1 and testMainEntry2 (Glow makes it with its own BundleSaver program; glowc from
# the fixture's entry1.onnx and entry2.onnx). Our client (clients/bundle-with-multiple-entries.cpp)
# runs each entry on 16 ones and checks 16 twos from entry 1 and 16 sixes from entry 2.
#   bundle-with-multiple-entries.sh <model-compiler> <generated dir> <work dir>
set -euo pipefail
source "$(dirname "$0")/common.sh"
model_compiler=$(abspath "$1") gen=$(abspath "$2") work=$(abspath "$3")

# The CMake variables of Glow's bundle_with_multiple_entries/CMakeLists.txt.
GLOW_BINARY_DIR=$work
CMAKE_RUNTIME_OUTPUT_DIRECTORY=${GLOW_BINARY_DIR}/bundles
BUNDLE_OUTPUT_DIRECTORY=${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/bundle_with_multiple_entries
MODELS=$gen/multiple_entries

rm -rf "$work"
mkdir -p "$BUNDLE_OUTPUT_DIRECTORY"
cd "$BUNDLE_OUTPUT_DIRECTORY"

# Glow's CMakeLists.txt runs its own program (BundleSaver.cpp, two networks built with Glow's C++
# API) with `-emit-bundle ${BUNDLE_OUTPUT_DIRECTORY} -bundle-api=dynamic -g`; with glowc the two
# networks are ONNX files, one -entry each, and the rest of its options as they are.
compile=("$model_compiler" -entry=testMainEntry1,${MODELS}/entry1.onnx -entry=testMainEntry2,${MODELS}/entry2.onnx
         -network-name=testBundle -emit-bundle ${BUNDLE_OUTPUT_DIRECTORY} -bundle-api=dynamic -g)
step "testBundle" "${compile[@]}"

build_client "$BUNDLE_OUTPUT_DIRECTORY/bundle_with_multiple_entries" "$BUNDLE_OUTPUT_DIRECTORY" \
  bundle-with-multiple-entries.cpp "$BUNDLE_OUTPUT_DIRECTORY/testBundle.o"
# The client reads testBundle.weights.bin from the current folder, as Glow's does.
"$BUNDLE_OUTPUT_DIRECTORY/bundle_with_multiple_entries" || { echo "FAIL: an entry gave wrong values"; exit 1; }
echo "PASS: bundle_with_multiple_entries"
