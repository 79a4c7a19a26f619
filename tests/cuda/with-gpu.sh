#!/bin/sh
# Runs a test that needs a GPU, or says plainly that it is skipped (exit 77, which
# ctest counts as skipped, not passed) when cuda-probe finds no usable one.
#   with-gpu.sh <cuda-probe> <command> [args...]
probe=$1
shift
if ! why=$("$probe" 2>&1); then
  echo "skipped: no GPU to run CUDA bundles on: $why"
  exit 77
fi
echo "GPU: $why"
exec "$@"
