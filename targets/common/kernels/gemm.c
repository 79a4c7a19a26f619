#include "kernel.h"

/* Y = alpha * op(A) * op(B) + beta * C.
 * t: Y, A, B, C (C may be NULL); p: M, N, K, transA, transB, alpha, beta, c_stride_m, c_stride_n */
GLOW_KERNEL(gemm_f32) {
  float *y = (float *)t[0];
  const float *a = (const float *)t[1], *b = (const float *)t[2], *c = (const float *)t[3];
  int64_t M = p[0], N = p[1], K = p[2], ta = p[3], tb = p[4];
  float alpha = (float)glow_pf(p[5]), beta = (float)glow_pf(p[6]);
  int64_t csm = p[7], csn = p[8];
  for (int64_t m = 0; m < M; m++)
    for (int64_t n = 0; n < N; n++) {
      float acc = 0.0f;
      for (int64_t k = 0; k < K; k++)
        acc += a[ta ? k * M + m : m * K + k] * b[tb ? n * K + k : k * N + n];
      y[m * N + n] = alpha * acc + (c ? beta * c[m * csm + n * csn] : 0.0f);
    }
}
