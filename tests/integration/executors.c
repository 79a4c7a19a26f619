/* Executors: a program that serves requests on several threads loads a bundle's
 * weights once and creates one instance per thread (glow-runtime.h). 8 threads
 * each run the digits bundle 1000 times on their own instance, fed and fetched
 * by name, on the ten samples in turn; every output must be the very bits one
 * thread alone computes for that sample. Built twice: plain, and with the
 * runtime under ThreadSanitizer (executors-tsan), which fails the test on a race.
 * Prints the memory: one copy of the weights, and each instance's areas.
 *   executors <digits.weights.bin> */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "digits.h"
#include "glow-runtime.h"
#include "samples.h"

#define THREADS 8
#define RUNS 1000

static const glow_bundle bundle = GLOW_BUNDLE(digits);
static float expected[10][10];
static const int64_t in_dims[4] = {1, 1, 8, 8};

typedef struct {
  glow_instance *inst;
  int id, mismatches, errors;
} worker;

static int classify(glow_instance *inst, int sample, float out[10]) {
  if (glow_instance_feed(inst, "input", 1, 4, in_dims, glow_digits_samples[sample],
                         sizeof glow_digits_samples[sample]) ||
      glow_instance_run(inst) || glow_instance_fetch(inst, "output", 1, out, 10 * sizeof(float))) {
    fprintf(stderr, "executors: %s\n", glow_last_error());
    return -1;
  }
  return 0;
}

static void *work(void *arg) {
  worker *w = arg;
  for (int i = 0; i < RUNS; i++) {
    int s = (w->id + i) % 10;
    float out[10];
    if (classify(w->inst, s, out))
      w->errors++;
    else if (memcmp(out, expected[s], sizeof out))
      w->mismatches++;
  }
  return NULL;
}

int main(int argc, char **argv) {
  glow_weights *weights = NULL;
  glow_instance *one = NULL;
  if (argc != 2 || glow_weights_load(&bundle, argv[1], &weights) || glow_instance_create(&bundle, weights, &one)) {
    fprintf(stderr, "usage: executors <digits.weights.bin>: %s\n", glow_last_error());
    return 2;
  }
  for (int s = 0; s < 10; s++)
    if (classify(one, s, expected[s]))
      return 1;
  glow_instance_free(one);

  worker w[THREADS];
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++) {
    w[t] = (worker){NULL, t, 0, 0};
    if (glow_instance_create(&bundle, weights, &w[t].inst)) {
      fprintf(stderr, "executors: %s\n", glow_last_error());
      return 1;
    }
  }
  for (int t = 0; t < THREADS; t++)
    if (pthread_create(&th[t], NULL, work, &w[t])) {
      fprintf(stderr, "executors: cannot start thread %d\n", t);
      return 1;
    }
  int bad = 0;
  for (int t = 0; t < THREADS; t++) {
    pthread_join(th[t], NULL);
    bad += w[t].mismatches + w[t].errors;
    if (w[t].mismatches || w[t].errors)
      printf("thread %d: %d outputs differ from one thread's, %d errors\n", t, w[t].mismatches, w[t].errors);
    glow_instance_free(w[t].inst);
  }
  const struct BundleConfig *c = &digits_config;
  printf("%d threads x %d runs: %s; memory: weights %llu bytes once + %d x (mutable %llu + activations %llu) "
         "bytes\n",
         THREADS, RUNS, bad ? "FAILED" : "every output identical to one thread's",
         (unsigned long long)c->constantWeightVarsMemSize, THREADS, (unsigned long long)c->mutableWeightVarsMemSize,
         (unsigned long long)c->activationsMemSize);
  glow_weights_free(weights);
  return bad != 0;
}
