#!/usr/bin/env bash
# The README's first command: installs what glowc needs, builds it, compiles the
# shipped digits model into a bundle and runs the example, which prints its predictions.
#   GLOWC_BUILD_DIR  build folder (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --build-only
build=${GLOWC_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGLOWC_BUILD_TESTS=OFF
cmake --build "$build" --target digits-classify
"$build/examples/digits/digits-classify" "$build/examples/digits/digits.bundle/digits.weights.bin"
