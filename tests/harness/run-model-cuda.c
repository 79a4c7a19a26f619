/* run-bundle on a GPU: a CUDA bundle through glow_instance_create_cuda
 * (device 0), its inputs copied from the host areas and its outputs back
 * (run-model.h). A missing driver or device is reported, with glow_last_error().
 * With GLOWC_TEST_TIME_RUNS=N in the environment, the instance then runs N more
 * times (after 3 untimed) and the median and minimum latency are printed: each
 * run copies the inputs in and the outputs out, as a program's would. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run-model.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int time_runs(glow_instance *inst, int n) {
  double *ms = malloc(sizeof *ms * (size_t)n);
  if (!ms)
    return -1;
  for (int i = 0; i < 3 + n; i++) {
    double t0 = now_ms();
    if (glow_instance_run(inst)) {
      printf("run-bundle: %s\n", glow_last_error());
      free(ms);
      return 1;
    }
    if (i >= 3)
      ms[i - 3] = now_ms() - t0;
  }
  qsort(ms, (size_t)n, sizeof *ms, cmp);
  printf("latency_ms median %.3f min %.3f (%d runs, inputs in and outputs out each)\n", ms[n / 2], ms[0], n);
  free(ms);
  return 0;
}

int glow_test_run_model(const glow_bundle *b, uint8_t *constant, uint8_t *mutable_, uint8_t *activations) {
  (void)activations; /* on the device */
  glow_weights *w = NULL;
  glow_instance *inst = NULL;
  if (glow_weights_wrap(b, constant, b->config->constantWeightVarsMemSize, &w) ||
      glow_instance_create_cuda(b, w, 0, &inst)) {
    fprintf(stderr, "run-bundle: %s\n", glow_last_error());
    glow_weights_free(w);
    return -1;
  }
  int n = glow_instance_tensor_count(inst), rc = 0;
  glow_tensor_ref t = {0};
  for (int i = 0; i < n; i++)
    if (!glow_instance_tensor(inst, i, &t))
      memcpy(t.data, mutable_ + b->config->symbolTable[i].offset, t.bytes);
  if (glow_instance_run(inst)) {
    printf("run-bundle: %s\n", glow_last_error());
    rc = 1;
  }
  for (int i = 0; !rc && i < n; i++)
    if (!glow_instance_tensor(inst, i, &t))
      memcpy(mutable_ + b->config->symbolTable[i].offset, t.data, t.bytes);
  const char *runs = getenv("GLOWC_TEST_TIME_RUNS");
  if (!rc && runs && atoi(runs) > 0)
    rc = time_runs(inst, atoi(runs));
  glow_instance_free(inst);
  glow_weights_free(w);
  return rc;
}
