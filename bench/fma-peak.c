/* The fp32 peak of one core: independent chains of vector FMAs, as many as the
 * ISA has registers for, timed over ~0.5 s. Built with -O2 -march=native by
 * bench/run-bench.sh, so it measures the machine the bundles run on.
 *
 *   fma-peak        prints "peak_gflops G vector_bits B chains C" */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#if defined(__AVX512F__)
#define VBYTES 64
#define CHAINS 16 /* 32 zmm registers: 16 accumulators, room for the operands */
#elif defined(__AVX__)
#define VBYTES 32
#define CHAINS 12 /* 16 ymm registers */
#else
#define VBYTES 16
#define CHAINS 12
#endif
#define LANES (VBYTES / 4)

typedef float vec __attribute__((vector_size(VBYTES)));

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* n rounds of CHAINS FMAs; the empty asm keeps the chains in registers and live. */
static void run(vec *acc, vec b, vec c, long n) {
  vec a[CHAINS];
  for (int i = 0; i < CHAINS; i++)
    a[i] = acc[i];
  for (long k = 0; k < n; k++) {
#pragma clang loop unroll(full)
    for (int i = 0; i < CHAINS; i++)
      a[i] = a[i] * b + c;
    __asm__ volatile("" : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]), "+x"(a[3]));
  }
  for (int i = 0; i < CHAINS; i++)
    acc[i] = acc[i] + a[i];
}

int main(void) {
  vec acc[CHAINS], b, c;
  for (int j = 0; j < LANES; j++) {
    b[j] = 0.999f;
    c[j] = 0.001f;
  }
  for (int i = 0; i < CHAINS; i++)
    for (int j = 0; j < LANES; j++)
      acc[i][j] = (float)i;
  long n = 1000000;
  double t = 0.0;
  run(acc, b, c, n); /* warm up: clocks settle */
  for (;;) {
    double t0 = now_s();
    run(acc, b, c, n);
    t = now_s() - t0;
    if (t > 0.5)
      break;
    n *= 2;
  }
  float sink = 0.0f;
  for (int i = 0; i < CHAINS; i++)
    sink += acc[i][0];
  double gflops = (double)n * CHAINS * LANES * 2.0 / t * 1e-9;
  printf("peak_gflops %.1f vector_bits %d chains %d%s\n", gflops, VBYTES * 8, CHAINS, sink == 0.5f ? " " : "");
  return 0;
}
