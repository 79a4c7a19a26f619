/* Says whether CUDA bundles can run here: prints the GPUs the driver sees and
 * exits 0, or prints why not (no libcuda.so.1, the toolkit's stub, no GPU) and
 * exits 1. with-gpu.sh runs it before the tests that need a GPU. */
#include <stdio.h>

#include "cuda-driver.h"
#include "runtime-internal.h"

int main(void) {
  const char *no_driver = glow_cuda_driver_error();
  if (no_driver) {
    printf("%s\n", no_driver);
    return 1;
  }
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS) {
    printf("cuInit failed: CUDA error %d%s\n", r,
           r == 34 ? " (libcuda.so.1 is the toolkit's stub: no NVIDIA driver)" : "");
    return 1;
  }
  int n = 0;
  if (cuDeviceGetCount(&n) != CUDA_SUCCESS || n == 0) {
    printf("the CUDA driver sees no GPU\n");
    return 1;
  }
  printf("%d CUDA device(s)\n", n);
  return 0;
}
