/* The CUDA driver, loaded at run time: this file defines the driver calls of
 * cuda-driver.h, each forwarding to libcuda.so.1, which the first call loads
 * (dlopen; the environment variable GLOWC_CUDA_DRIVER names another file to
 * load instead, e.g. a particular driver's). A program with a CUDA bundle then starts on a machine without an
 * NVIDIA driver, and can fall back to a CPU bundle there: glow_instance_create_cuda
 * says why it cannot run (glow_cuda_driver_error), and the calls return
 * CUDA_ERROR_NOT_INITIALIZED. A program that links libcuda as well gets these
 * definitions (an archive's are linked before a shared library's); both reach
 * the same driver. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda-driver.h"
#include "runtime-internal.h"

#define GLOW_CUDA_CALLS(X)                                                                                             \
  X(cuCtxGetCurrent, (CUcontext * a), (a))                                                                             \
  X(cuModuleLoadData, (CUmodule * a, const void *b), (a, b))                                                           \
  X(cuModuleUnload, (CUmodule a), (a))                                                                                 \
  X(cuModuleGetFunction, (CUfunction * a, CUmodule b, const char *c), (a, b, c))                                       \
  X(cuLaunchKernel,                                                                                                    \
    (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh,         \
     CUstream s, void **p, void **e),                                                                                  \
    (f, gx, gy, gz, bx, by, bz, sh, s, p, e))                                                                          \
  X(cuStreamSynchronize, (CUstream a), (a))                                                                            \
  X(cuInit, (unsigned a), (a))                                                                                         \
  X(cuDeviceGetCount, (int *a), (a))                                                                                   \
  X(cuDeviceGet, (CUdevice * a, int b), (a, b))                                                                        \
  X(cuDevicePrimaryCtxRetain, (CUcontext * a, CUdevice b), (a, b))                                                     \
  X(cuDevicePrimaryCtxRelease_v2, (CUdevice a), (a))                                                                   \
  X(cuCtxPushCurrent_v2, (CUcontext a), (a))                                                                           \
  X(cuCtxPopCurrent_v2, (CUcontext * a), (a))                                                                          \
  X(cuMemAlloc_v2, (CUdeviceptr * a, size_t b), (a, b))                                                                \
  X(cuMemFree_v2, (CUdeviceptr a), (a))                                                                                \
  X(cuMemsetD8_v2, (CUdeviceptr a, unsigned char b, size_t c), (a, b, c))                                              \
  X(cuMemcpyHtoD_v2, (CUdeviceptr a, const void *b, size_t c), (a, b, c))                                              \
  X(cuMemcpyDtoH_v2, (void *a, CUdeviceptr b, size_t c), (a, b, c))                                                    \
  X(cuGetErrorName, (CUresult a, const char **b), (a, b))                                                              \
  X(cuGetErrorString, (CUresult a, const char **b), (a, b))

static struct {
#define FIELD(name, params, args) CUresult(*name) params;
  GLOW_CUDA_CALLS(FIELD)
#undef FIELD
} driver;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char error[400]; /* why the driver could not be loaded, "" if it was */

static void load(void) {
  const char *path = getenv("GLOWC_CUDA_DRIVER");
  path = path && *path ? path : "libcuda.so.1";
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(error, sizeof error, "no CUDA driver: cannot load %s (%s); install the NVIDIA driver, or run where a "
             "GPU is", path, why ? why : "not found");
    return;
  }
  const char *missing = NULL;
#define LOOKUP(name, params, args)                                                                                     \
  if (!(*(void **)&driver.name = dlsym(lib, #name)) && !missing)                                                       \
    missing = #name;
  GLOW_CUDA_CALLS(LOOKUP)
#undef LOOKUP
  if (missing) {
    snprintf(error, sizeof error, "%s has no %s: the NVIDIA driver is too old for glowc", path, missing);
    dlclose(lib);
    return;
  }
}

const char *glow_cuda_driver_error(void) {
  pthread_once(&once, load);
  return error[0] ? error : NULL;
}

#define SHIM(name, params, args)                                                                                       \
  CUresult name params {                                                                                               \
    pthread_once(&once, load);                                                                                         \
    return error[0] ? CUDA_ERROR_NOT_INITIALIZED : driver.name args;                                                   \
  }
GLOW_CUDA_CALLS(SHIM)
#undef SHIM
