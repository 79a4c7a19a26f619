/* Shared by the runtime's own files (runtime.c and the packed-weights loader,
 * weights-zst.c); not for programs. */
#ifndef GLOW_RUNTIME_INTERNAL_H
#define GLOW_RUNTIME_INTERNAL_H

#include "glow-runtime.h"

struct glow_weights {
  const glow_bundle *bundle;
  uint8_t *data;
  int owned;
};

/* An instance: the areas in host memory; a device instance (cuda.c) also has
 * them on the device, and runs and frees through its hooks. */
struct glow_instance {
  const glow_bundle *bundle;
  const glow_weights *weights;
  uint8_t *mutable_area, *activations; /* activations: NULL on a device */
  int (*device_run)(glow_instance *inst);
  void (*device_free)(glow_instance *inst);
  void *device;
};

/* Sets glow_last_error() from fmt and returns status. */
int glow_rt_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The bundle's alignment (64 when it says 0). */
uint64_t glow_rt_alignment(const glow_bundle *b);
/* A zeroed area of size bytes aligned to align, for free(); NULL when out of memory. */
void *glow_rt_alloc_area(uint64_t size, uint64_t align);
/* Weights owning data (an area from glow_rt_alloc_area, freed here on failure too). */
int glow_rt_weights_adopt(const glow_bundle *b, uint8_t *data, glow_weights **out);

/* cuda-loader.c: why the CUDA driver (libcuda.so.1) cannot be used, or NULL when it was loaded. */
const char *glow_cuda_driver_error(void);

#endif
