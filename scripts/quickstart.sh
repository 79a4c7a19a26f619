#!/usr/bin/env bash
# The README's first command: installs what glowc needs, builds it, compiles the
# shipped digits model into bundles (float, int8 from a profile the build makes, and
# float with zstd-packed weights, and a CUDA bundle) and runs the example with each,
# which prints its predictions (the CUDA one on a GPU; without one it says so).
#   GLOWC_BUILD_DIR  build folder (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --build-only
build=${GLOWC_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGLOWC_BUILD_TESTS=OFF
cmake --build "$build" --target digits-classify digits-classify-int8 digits-classify-zst digits-classify-cuda
echo "== float bundle"
"$build/examples/digits/digits-classify" "$build/examples/digits/digits.bundle/digits.weights.bin"
echo "== int8 bundle (quantized with a profile of 200 calibration images)"
"$build/examples/digits/digits-classify-int8" "$build/examples/digits/digits_int8.bundle/digits.weights.bin"
zst=$build/examples/digits/digits_zst.bundle/digits.weights.zst
echo "== float bundle, zstd-packed weights ($(stat -c %s "$zst") bytes instead of" \
     "$(stat -c %s "$build/examples/digits/digits.bundle/digits.weights.bin"))"
"$build/examples/digits/digits-classify-zst" "$zst"
echo "== CUDA bundle (PTX for sm_80 and later, run on GPU 0 when there is one)"
"$build/examples/digits/digits-classify-cuda" "$build/examples/digits/digits_cuda.bundle/digits.weights.bin" ||
  echo "(not run here: the program says why above; the other bundles ran)"
