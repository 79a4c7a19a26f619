/* Normalizations: BatchNormalization, InstanceNormalization, LayerNormalization, LRN, MVN. */
#include "kernel.h"
#include "kmath.h"
#include "kernels/nn-vec.h"

static inline float nn_sqrt_f32(float x) { return glow_sqrtf(x); }
static inline double nn_sqrt_f64(double x) { return glow_sqrt(x); }

/* y = x * a[c] + b[c], a = scale / sqrt(var + eps), b = B - mean * a.
 * t: Y, X, scale, B, mean, var; p: glow_abi_batchnorm */
#define BATCHNORM(SUF, T)                                                                                              \
  GLOW_KERNEL(batchnorm_##SUF) {                                                                                       \
    T *y = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1], *sc = (const T *)t[2], *bi = (const T *)t[3], *mu = (const T *)t[4],                 \
            *va = (const T *)t[5];                                                                                     \
    const glow_abi_batchnorm *ap = (const glow_abi_batchnorm *)p;                                                      \
    int64_t N = ap->N, C = ap->C, S = ap->S;                                                                           \
    T eps = (T)glow_pf(ap->eps);                                                                                       \
    for (int64_t n = 0; n < N; n++)                                                                                    \
      for (int64_t c = 0; c < C; c++) {                                                                                \
        T a = sc[c] / nn_sqrt_##SUF(va[c] + eps), b = bi[c] - mu[c] * a;                                               \
        const T *xi = x + (n * C + c) * S;                                                                             \
        T *yi = y + (n * C + c) * S;                                                                                   \
        for (int64_t s = 0; s < S; s++)                                                                                \
          yi[s] = xi[s] * a + b;                                                                                       \
      }                                                                                                                \
  }

BATCHNORM(f32, float)
BATCHNORM(f64, double)

/* Mean and 1/sqrt(variance + eps) of n contiguous values (two passes; float
 * sums in 16 lanes, so that they vectorize and round less). */
static inline float nn_sum16_f32(const glow_nn_v16 *acc) {
  float s = 0.0f;
  for (int j = 0; j < 16; j++)
    s += (*acc)[j];
  return s;
}

static inline void nn_moments_f32(const float *x, int64_t n, float eps, float *mean, float *inv) {
  glow_nn_v16 acc = {0};
  float s = 0.0f, q = 0.0f;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    acc += *(const glow_nn_v16 *)(x + i);
  for (; i < n; i++)
    s += x[i];
  float m = (nn_sum16_f32(&acc) + s) / (float)n;
  glow_nn_v16 dq = {0};
  for (i = 0; i + 16 <= n; i += 16) {
    glow_nn_v16 d = *(const glow_nn_v16 *)(x + i) - m;
    dq += d * d;
  }
  for (; i < n; i++)
    q += (x[i] - m) * (x[i] - m);
  *mean = m;
  *inv = 1.0f / nn_sqrt_f32((nn_sum16_f32(&dq) + q) / (float)n + eps);
}

static inline void nn_moments_f64(const double *x, int64_t n, double eps, double *mean, double *inv) {
  double s = 0, q = 0;
  for (int64_t i = 0; i < n; i++)
    s += x[i];
  double m = s / (double)n;
  for (int64_t i = 0; i < n; i++)
    q += (x[i] - m) * (x[i] - m);
  *mean = m;
  *inv = 1 / nn_sqrt_f64(q / (double)n + eps);
}

/* t: Y, X, scale, B; p: glow_abi_instancenorm */
#define INSTANCENORM(SUF, T)                                                                                           \
  GLOW_KERNEL(instancenorm_##SUF) {                                                                                    \
    T *y = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1], *sc = (const T *)t[2], *bi = (const T *)t[3];                                        \
    const glow_abi_instancenorm *ap = (const glow_abi_instancenorm *)p;                                                \
    int64_t NC = ap->NC, C = ap->C, S = ap->S;                                                                         \
    T eps = (T)glow_pf(ap->eps);                                                                                       \
    for (int64_t i = 0; i < NC; i++) {                                                                                 \
      T mean, inv;                                                                                                     \
      nn_moments_##SUF(x + i * S, S, eps, &mean, &inv);                                                                \
      T a = sc[i % C] * inv, b = bi[i % C] - mean * a;                                                                 \
      for (int64_t s = 0; s < S; s++)                                                                                  \
        y[i * S + s] = x[i * S + s] * a + b;                                                                           \
    }                                                                                                                  \
  }

INSTANCENORM(f32, float)
INSTANCENORM(f64, double)

/* t: Y, Mean, InvStdDev (float; either may be NULL), X, Scale, B (may be NULL);
 * p: glow_abi_layernorm */
#define LAYERNORM(SUF, T)                                                                                              \
  GLOW_KERNEL(layernorm_##SUF) {                                                                                       \
    T *y = (T *)t[0];                                                                                                  \
    float *mo = (float *)t[1], *io = (float *)t[2];                                                                    \
    const T *x = (const T *)t[3], *sc = (const T *)t[4], *bi = (const T *)t[5];                                        \
    const glow_abi_layernorm *ap = (const glow_abi_layernorm *)p;                                                      \
    int64_t outer = ap->outer, inner = ap->inner, s1 = ap->scale_one, b1 = ap->bias_one;                               \
    T eps = (T)glow_pf(ap->eps);                                                                                       \
    for (int64_t a = 0; a < outer; a++) {                                                                              \
      const T *xi = x + a * inner;                                                                                     \
      T *yi = y + a * inner;                                                                                           \
      T mean, inv;                                                                                                     \
      nn_moments_##SUF(xi, inner, eps, &mean, &inv);                                                                   \
      for (int64_t i = 0; i < inner; i++)                                                                              \
        yi[i] = (xi[i] - mean) * inv * sc[s1 ? 0 : i] + (bi ? bi[b1 ? 0 : i] : (T)0);                                  \
      if (mo)                                                                                                          \
        mo[a] = (float)mean;                                                                                           \
      if (io)                                                                                                          \
        io[a] = (float)inv;                                                                                            \
    }                                                                                                                  \
  }

LAYERNORM(f32, float)
LAYERNORM(f64, double)

/* y = x * (bias + alpha' * sum over channels c-lo..c+hi of x^2)^-beta, alpha' = alpha / size.
 * t: Y, X; p: glow_abi_lrn (alpha: alpha') */
#define LRN(SUF, T)                                                                                                    \
  GLOW_KERNEL(lrn_##SUF) {                                                                                             \
    T *y = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_lrn *ap = (const glow_abi_lrn *)p;                                                                  \
    int64_t N = ap->N, C = ap->C, S = ap->S, lo = ap->lo, hi = ap->hi;                                                 \
    float alpha = (float)glow_pf(ap->alpha), beta = (float)glow_pf(ap->beta), bias = (float)glow_pf(ap->bias);         \
    for (int64_t n = 0; n < N; n++)                                                                                    \
      for (int64_t c = 0; c < C; c++) {                                                                                \
        int64_t j0 = c - lo < 0 ? 0 : c - lo, j1 = c + hi + 1 > C ? C : c + hi + 1;                                    \
        for (int64_t s = 0; s < S; s++) {                                                                              \
          T sum = 0;                                                                                                   \
          for (int64_t j = j0; j < j1; j++)                                                                            \
            sum += x[(n * C + j) * S + s] * x[(n * C + j) * S + s];                                                    \
          int64_t i = (n * C + c) * S + s;                                                                             \
          y[i] = x[i] / (T)glow_powf(bias + alpha * (float)sum, beta);                                                 \
        }                                                                                                              \
      }                                                                                                                \
  }

LRN(f32, float)
LRN(f64, double)

/* (x - mean) / (std + 1e-9) over the reduced axes, for every index of the kept ones.
 * t: Y, X; p: glow_abi_mvn */
#define MVN(SUF, T)                                                                                                    \
  GLOW_KERNEL(mvn_##SUF) {                                                                                             \
    T *y = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_mvn *ap = (const glow_abi_mvn *)p;                                                                  \
    const int64_t *kd = ap->kept_dims, *ks = ap->kept_strides, *rd = ap->red_dims, *rs = ap->red_strides;              \
    T cnt = (T)(rd[0] * rd[1] * rd[2] * rd[3]);                                                                        \
    for (int64_t k0 = 0; k0 < kd[0]; k0++)                                                                             \
      for (int64_t k1 = 0; k1 < kd[1]; k1++)                                                                           \
        for (int64_t k2 = 0; k2 < kd[2]; k2++)                                                                         \
          for (int64_t k3 = 0; k3 < kd[3]; k3++) {                                                                     \
            int64_t base = k0 * ks[0] + k1 * ks[1] + k2 * ks[2] + k3 * ks[3];                                          \
            T s = 0, q = 0;                                                                                            \
            for (int64_t r0 = 0; r0 < rd[0]; r0++)                                                                     \
              for (int64_t r1 = 0; r1 < rd[1]; r1++)                                                                   \
                for (int64_t r2 = 0; r2 < rd[2]; r2++)                                                                 \
                  for (int64_t r3 = 0; r3 < rd[3]; r3++)                                                               \
                    s += x[base + r0 * rs[0] + r1 * rs[1] + r2 * rs[2] + r3 * rs[3]];                                  \
            T mean = s / cnt;                                                                                          \
            /* Two passes: E[x^2] - E[x]^2 cancels when the spread is small next to the mean. */                       \
            for (int64_t r0 = 0; r0 < rd[0]; r0++)                                                                     \
              for (int64_t r1 = 0; r1 < rd[1]; r1++)                                                                   \
                for (int64_t r2 = 0; r2 < rd[2]; r2++)                                                                 \
                  for (int64_t r3 = 0; r3 < rd[3]; r3++) {                                                             \
                    T v = x[base + r0 * rs[0] + r1 * rs[1] + r2 * rs[2] + r3 * rs[3]] - mean;                          \
                    q += v * v;                                                                                        \
                  }                                                                                                    \
            T var = q / cnt;                                                                                           \
            T inv = (T)1 / (nn_sqrt_##SUF(var) + (T)1e-9);                                                             \
            for (int64_t r0 = 0; r0 < rd[0]; r0++)                                                                     \
              for (int64_t r1 = 0; r1 < rd[1]; r1++)                                                                   \
                for (int64_t r2 = 0; r2 < rd[2]; r2++)                                                                 \
                  for (int64_t r3 = 0; r3 < rd[3]; r3++) {                                                             \
                    int64_t i = base + r0 * rs[0] + r1 * rs[1] + r2 * rs[2] + r3 * rs[3];                              \
                    y[i] = (x[i] - mean) * inv;                                                                        \
                  }                                                                                                    \
          }                                                                                                            \
  }

MVN(f32, float)
MVN(f64, double)
