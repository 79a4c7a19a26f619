/* The host side of a CUDA bundle, compiled to bitcode for each host architecture
 * (targets/cuda/target.cmake) and inlined into the bundle's entry by codegen: the
 * entry passes its PTX, its table of steps and two caches of its own.
 *
 * On the first call in a CUDA context, the PTX is loaded into that context
 * (cuModuleLoadData: the driver compiles it for the GPU) and the step kernels
 * are looked up; later calls in the same context reuse them. The steps are
 * launched in order on the context's default stream, which runs them one after
 * another, and the call returns when the last one is done. Returns 0
 * (GLOW_SUCCESS) or the CUresult of the driver call that failed, e.g. 201 when
 * no CUDA context is current on the calling thread, 34 when libcuda is the
 * toolkit's stub (no driver). Not thread-safe on the first call of a context.
 *
 * The driver's declarations are glowc's own (runtime/cuda-driver.h): building
 * glowc needs no CUDA toolkit. A program resolves these calls with libcuda, or
 * with the runtime's glowc_runtime_cuda, which loads libcuda at run time. */
#include <stdint.h>

#include "cuda-driver.h" /* runtime/ */

typedef struct glow_cuda_step {
  const char *name;    /* the step's kernel in the PTX */
  uint32_t grid, block; /* blocks, threads per block */
} glow_cuda_step;

typedef struct glow_cuda_cache {
  CUcontext ctx; /* where mod was loaded */
  CUmodule mod;
} glow_cuda_cache;

static CUresult load(const char *ptx, const glow_cuda_step *steps, int32_t nsteps, glow_cuda_cache *cache,
                     CUfunction *fns, CUcontext ctx) {
  CUmodule mod;
  CUresult r = cuModuleLoadData(&mod, ptx);
  if (r)
    return r;
  for (int32_t i = 0; i < nsteps; i++)
    if ((r = cuModuleGetFunction(&fns[i], mod, steps[i].name))) {
      cuModuleUnload(mod);
      return r;
    }
  cache->ctx = ctx;
  cache->mod = mod;
  return CUDA_SUCCESS;
}

int32_t glow_cuda_run(const char *ptx, const glow_cuda_step *steps, int32_t nsteps, glow_cuda_cache *cache,
                      CUfunction *fns, uint8_t *constant, uint8_t *mutable_, uint8_t *activations) {
  CUcontext ctx = 0;
  CUresult r = cuCtxGetCurrent(&ctx);
  if (!r && !ctx)
    r = CUDA_ERROR_INVALID_CONTEXT;
  if (!r && (cache->ctx != ctx || !cache->mod))
    r = load(ptx, steps, nsteps, cache, fns, ctx);
  void *args[3] = {&constant, &mutable_, &activations};
  for (int32_t i = 0; !r && i < nsteps; i++)
    r = cuLaunchKernel(fns[i], steps[i].grid, 1, 1, steps[i].block, 1, 1, 0, 0, args, 0);
  if (!r)
    r = cuStreamSynchronize(0);
  return (int32_t)r;
}
