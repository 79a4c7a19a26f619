#!/bin/sh
# A CUDA program on a machine without a usable CUDA driver: digits-classify-cuda must
# exit 1 (not crash) with glow_last_error()'s reason, for a driver library that is not
# there and, given the toolkit's stub libcuda, for the stub.
#   check-no-driver.sh <digits-classify-cuda> <digits.weights.bin> [stub libcuda.so]
exe=$1 weights=$2 stub=${3-}
status=0
expect() { # name, want (a grep -E pattern), then the environment for the run
  name=$1 want=$2
  shift 2
  out=$(env "$@" "$exe" "$weights" 2>&1)
  rc=$?
  if [ "$rc" -ne 1 ] || ! echo "$out" | grep -Eq "$want"; then
    echo "FAIL ($name): exit $rc, want 1 and /$want/; output:"
    echo "$out"
    status=1
  else
    echo "ok ($name): $out"
  fi
}
expect "no driver library" "digits-classify: bundle 'digits': no CUDA driver: cannot load /nonexistent/libcuda.so.1" \
  GLOWC_CUDA_DRIVER=/nonexistent/libcuda.so.1
if [ -n "$stub" ] && [ -f "$stub" ]; then
  expect "the toolkit's stub" "cuInit\(0\) failed: CUDA error 34.*stub: this machine has no NVIDIA driver" \
    GLOWC_CUDA_DRIVER="$stub"
else
  echo "skipped (the toolkit's stub): no stub libcuda.so given"
fi
exit $status
