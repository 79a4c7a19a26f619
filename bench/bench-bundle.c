/* Times a dynamic-API bundle named "model": loads its weights, fills the inputs
 * with a fixed pattern, runs it `warmup` times, then reports the median and the
 * minimum of `iters` timed runs in milliseconds, with at most `threads` threads
 * (glow_threads_set; a bundle uses more than one where it was compiled with
 * -num-threads, default 1).
 *
 *   bench-bundle <model.weights.bin> [iters] [warmup] [threads] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "glow-runtime.h"

extern BundleConfig model_config;
extern const struct GlowTensorInfo model_tensor_info[];
int model(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  static const glow_bundle b = GLOW_BUNDLE(model);
  if (argc < 2) {
    fprintf(stderr, "usage: bench-bundle <model.weights.bin> [iters] [warmup] [threads]\n");
    return 2;
  }
  int iters = argc > 2 ? atoi(argv[2]) : 50, warmup = argc > 3 ? atoi(argv[3]) : 5;
  if (glow_threads_set(argc > 4 ? atoi(argv[4]) : 1)) {
    fprintf(stderr, "bench-bundle: threads must be 0..256\n");
    return 2;
  }
  glow_weights *w;
  glow_instance *inst;
  if (glow_weights_load(&b, argv[1], &w) || glow_instance_create(&b, w, &inst)) {
    fprintf(stderr, "bench-bundle: %s\n", glow_last_error());
    return 1;
  }
  for (int i = 0; i < glow_instance_tensor_count(inst); i++) {
    glow_tensor_ref t;
    glow_instance_tensor(inst, i, &t);
    if (t.is_input && t.dtype == 1)
      for (uint64_t k = 0; k < t.numel; k++)
        ((float *)t.data)[k] = (float)((k * 7919) % 1000) / 1000.0f - 0.5f;
  }
  double *ms = malloc(sizeof *ms * (size_t)(iters > 0 ? iters : 1));
  for (int i = 0; i < warmup; i++)
    glow_instance_run(inst);
  for (int i = 0; i < iters; i++) {
    double t0 = now_ms();
    if (glow_instance_run(inst)) {
      fprintf(stderr, "bench-bundle: %s\n", glow_last_error());
      return 1;
    }
    ms[i] = now_ms() - t0;
  }
  qsort(ms, (size_t)iters, sizeof *ms, cmp);
  printf("median_ms %.3f min_ms %.3f iters %d\n", ms[iters / 2], ms[0], iters);
  free(ms);
  glow_instance_free(inst);
  glow_weights_free(w);
  return 0;
}
