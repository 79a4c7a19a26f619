/* glowc runtime: instances of CUDA bundles (glow-runtime.h, "GPU bundles"). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "cuda-driver.h"
#include "glow-runtime.h"
#include "runtime-internal.h"

typedef struct cuda_instance {
  CUdevice dev;
  CUcontext ctx; /* the device's primary context, retained */
  CUdeviceptr area[3]; /* constant, mutable, activations; 0 for an empty one */
} cuda_instance;

/* What to do about the errors a user can meet without a bug in the program. */
static const char *hint(CUresult r) {
  switch ((int)r) {
  case 34: return "; libcuda here is the CUDA toolkit's stub: this machine has no NVIDIA driver";
  case 35: return "; the NVIDIA driver is older than the CUDA version this needs: update the driver";
  case 100: return "; the driver sees no GPU";
  case 101: return "; no GPU of that number (see nvidia-smi)";
  case 2: return "; the GPU's memory is full";
  case 209: case 218: case 222:
    return "; the driver cannot compile the bundle's PTX: compile it for this GPU's -mcpu=sm_XX, or with an "
           "older -mattr=+ptxNN";
  default: return "";
  }
}

/* Sets glow_last_error() to the call, the CUDA error (named by the driver where it
 * can, which the stub cannot) and a hint; returns status. */
static int fail(int status, const char *call, const char *bundle, CUresult r) {
  const char *name = NULL, *text = NULL;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS)
    name = NULL;
  if (cuGetErrorString(r, &text) != CUDA_SUCCESS)
    text = NULL;
  return glow_rt_fail(status, "bundle '%s': %s failed: CUDA error %d%s%s%s%s%s%s", bundle, call, (int)r,
                      name ? " " : "", name ? name : "", text ? " (" : "", text ? text : "", text ? ")" : "",
                      hint(r));
}

#define CHECK(call, status)                                                                                            \
  do {                                                                                                                 \
    CUresult r_ = (call);                                                                                              \
    if (r_ != CUDA_SUCCESS) {                                                                                          \
      rc = fail(status, #call, b->name, r_);                                                                          \
      goto out;                                                                                                        \
    }                                                                                                                  \
  } while (0)

static void cuda_release(cuda_instance *d) {
  if (!d->ctx)
    return;
  cuCtxPushCurrent_v2(d->ctx);
  for (int i = 0; i < 3; i++)
    if (d->area[i])
      cuMemFree_v2(d->area[i]);
  cuCtxPopCurrent_v2(NULL);
  cuDevicePrimaryCtxRelease_v2(d->dev);
}

static void cuda_free(glow_instance *inst) {
  cuda_release(inst->device);
  free(inst->device);
}

static int cuda_run(glow_instance *inst) {
  cuda_instance *d = inst->device;
  const glow_bundle *b = inst->bundle;
  uint64_t msize = b->config->mutableWeightVarsMemSize;
  int rc = GLOW_RT_OK, pushed = 0;
  CHECK(cuCtxPushCurrent_v2(d->ctx), GLOW_RT_ERR_DEVICE);
  pushed = 1;
  if (msize)
    CHECK(cuMemcpyHtoD_v2(d->area[1], inst->mutable_area, msize), GLOW_RT_ERR_DEVICE);
  int r = b->entry((uint8_t *)(uintptr_t)d->area[0], (uint8_t *)(uintptr_t)d->area[1],
                   (uint8_t *)(uintptr_t)d->area[2]);
  if (r != GLOW_SUCCESS) {
    rc = fail(GLOW_RT_ERR_BUNDLE, "the bundle's entry", b->name, (CUresult)r);
    goto out;
  }
  if (msize)
    CHECK(cuMemcpyDtoH_v2(inst->mutable_area, d->area[1], msize), GLOW_RT_ERR_DEVICE);
out:
  if (pushed)
    cuCtxPopCurrent_v2(NULL);
  return rc;
}

int glow_instance_create_cuda(const glow_bundle *b, const glow_weights *w, int device, glow_instance **out) {
  if (!b || !w || !out)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_instance_create_cuda: NULL argument");
  *out = NULL;
  if (w->bundle->config != b->config)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "weights were loaded for bundle '%s', not '%s'", w->bundle->name, b->name);
  const struct BundleConfig *c = b->config;
  glow_instance *inst = calloc(1, sizeof *inst);
  cuda_instance *d = calloc(1, sizeof *d);
  uint8_t *m = glow_rt_alloc_area(c->mutableWeightVarsMemSize, glow_rt_alignment(b));
  if (!inst || !d || !m) {
    free(inst);
    free(d);
    free(m);
    return glow_rt_fail(GLOW_RT_ERR_NOMEM, "cannot allocate the host memory of bundle '%s'", b->name);
  }
  int rc = GLOW_RT_OK, pushed = 0, count = 0;
  const char *no_driver = glow_cuda_driver_error();
  if (no_driver) {
    rc = glow_rt_fail(GLOW_RT_ERR_DEVICE, "bundle '%s': %s", b->name, no_driver);
    goto out;
  }
  CHECK(cuInit(0), GLOW_RT_ERR_DEVICE);
  CHECK(cuDeviceGetCount(&count), GLOW_RT_ERR_DEVICE);
  if (device < 0 || device >= count) {
    rc = glow_rt_fail(GLOW_RT_ERR_DEVICE, "bundle '%s': no CUDA device %d; the driver sees %d", b->name, device,
                      count);
    goto out;
  }
  CHECK(cuDeviceGet(&d->dev, device), GLOW_RT_ERR_DEVICE);
  CHECK(cuDevicePrimaryCtxRetain(&d->ctx, d->dev), GLOW_RT_ERR_DEVICE);
  CHECK(cuCtxPushCurrent_v2(d->ctx), GLOW_RT_ERR_DEVICE);
  pushed = 1;
  const uint64_t size[3] = {c->constantWeightVarsMemSize, c->mutableWeightVarsMemSize, c->activationsMemSize};
  for (int i = 0; i < 3; i++)
    if (size[i]) {
      CHECK(cuMemAlloc_v2(&d->area[i], size[i]), GLOW_RT_ERR_DEVICE);
      CHECK(cuMemsetD8_v2(d->area[i], 0, size[i]), GLOW_RT_ERR_DEVICE);
    }
  if (size[0])
    CHECK(cuMemcpyHtoD_v2(d->area[0], glow_weights_data(w), size[0]), GLOW_RT_ERR_DEVICE);
out:
  if (pushed)
    cuCtxPopCurrent_v2(NULL);
  if (rc) {
    cuda_release(d);
    free(d);
    free(inst);
    free(m);
    return rc;
  }
  inst->bundle = b;
  inst->mutable_area = m;
  inst->device_run = cuda_run;
  inst->device_free = cuda_free;
  inst->device = d;
  *out = inst;
  return GLOW_RT_OK;
}
