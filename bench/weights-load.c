/* Loads a weights file with the runtime, as a program would, and reports the
 * time and this process's peak memory (bench/weights-bench.sh runs one process
 * per file, so the peaks of a raw and a packed load compare).
 *
 *   weights-load bin|zst <file> <constant area bytes> <runs>
 *
 * Prints "<median ms> <peak RSS KiB>", the peak taken after one untimed load
 * (before the timed ones, whose freed areas the allocator may keep); checks
 * nothing but the status. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "glow-runtime.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 5 || (strcmp(argv[1], "bin") && strcmp(argv[1], "zst"))) {
    fprintf(stderr, "usage: weights-load bin|zst <file> <constant area bytes> <runs>\n");
    return 2;
  }
  struct BundleConfig cfg = {strtoull(argv[3], NULL, 10), 0, 0, 64, 0, NULL};
  glow_bundle b = {"bench", &cfg, NULL, NULL};
  int runs = atoi(argv[4]) > 0 ? atoi(argv[4]) : 1, zst = !strcmp(argv[1], "zst");
  double *ms = malloc(sizeof(double) * (size_t)runs);
  struct rusage ru;
  for (int r = -1; r < runs; r++) {
    glow_weights *w = NULL;
    double t0 = now_ms();
    int rc = zst ? glow_weights_load_zst(&b, argv[2], &w) : glow_weights_load(&b, argv[2], &w);
    if (rc) {
      fprintf(stderr, "weights-load: %s\n", glow_last_error());
      return 1;
    }
    if (r < 0)
      getrusage(RUSAGE_SELF, &ru);
    else
      ms[r] = now_ms() - t0;
    glow_weights_free(w);
  }
  qsort(ms, (size_t)runs, sizeof *ms, by_value);
  printf("%.2f %ld\n", ms[runs / 2], ru.ru_maxrss);
  free(ms);
  return 0;
}
