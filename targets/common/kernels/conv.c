/* Convolution, N x C x [D x [H x]] W layout; spatial axes right-aligned to 3. */
#include "kernel.h"
#include "kmath.h"

/* Common window params at p[o]: in[3], out[3], k[3], s[3], d[3], pb[3], pe[3]. */
#define WIN_PARAMS(o)                                                                                              \
  const int64_t *in = p + (o), *out = p + (o) + 3, *k = p + (o) + 6, *s = p + (o) + 9, *d = p + (o) + 12,      \
                *pb = p + (o) + 15;                                                                                \
  int64_t isz = in[0] * in[1] * in[2], osz = out[0] * out[1] * out[2], ksz = k[0] * k[1] * k[2]

/* Adds wv * x over every output position of one tap (kd, kh, kw): the valid
 * positions of each axis form a range, so the innermost loop has no tests. */
#define CONV_TAP(T, ACC, yo, xc, wv, XV)                                                                           \
  do {                                                                                                             \
    int64_t d0, d1, h0, h1, w0, w1;                                                                                \
    glow_nn_range(kd * d[0] - pb[0], s[0], in[0], out[0], &d0, &d1);                                               \
    glow_nn_range(kh * d[1] - pb[1], s[1], in[1], out[1], &h0, &h1);                                               \
    glow_nn_range(kw * d[2] - pb[2], s[2], in[2], out[2], &w0, &w1);                                               \
    for (int64_t od = d0; od < d1; od++)                                                                           \
      for (int64_t oh = h0; oh < h1; oh++) {                                                                       \
        T *yr = (yo) + (od * out[1] + oh) * out[2];                                                                \
        const int64_t ih = oh * s[1] + kh * d[1] - pb[1], id = od * s[0] + kd * d[0] - pb[0];                   \
        const __typeof__(*(xc)) *xr = (xc) + (id * in[1] + ih) * in[2] + kw * d[2] - pb[2];                      \
        for (int64_t ow = w0; ow < w1; ow++)                                                                       \
          yr[ow] += (ACC)(wv) * ((ACC)xr[ow * s[2]] XV);                                                           \
      }                                                                                                            \
  } while (0)

/* Direct convolution, one output channel plane at a time.
 * t: Y, X, W, B (B may be NULL); p: N, G, C/G, M/G, window params. */
#define CONV(SUF, T)                                                                                               \
  GLOW_KERNEL(conv_##SUF) {                                                                                        \
    T *y = (T *)t[0];                                                                                              \
    const T *x = (const T *)t[1], *w = (const T *)t[2], *b = (const T *)t[3];                                   \
    int64_t N = p[0], G = p[1], Cg = p[2], Mg = p[3];                                                              \
    WIN_PARAMS(4);                                                                                                 \
    for (int64_t n = 0; n < N; n++)                                                                                \
      for (int64_t g = 0; g < G; g++)                                                                              \
        for (int64_t m = 0; m < Mg; m++) {                                                                         \
          T *yo = y + ((n * G + g) * Mg + m) * osz;                                                                \
          T bias = b ? b[g * Mg + m] : (T)0;                                                                       \
          for (int64_t i = 0; i < osz; i++)                                                                        \
            yo[i] = bias;                                                                                          \
          for (int64_t c = 0; c < Cg; c++) {                                                                       \
            const T *xc = x + ((n * G + g) * Cg + c) * isz, *wc = w + ((g * Mg + m) * Cg + c) * ksz;               \
            for (int64_t kd = 0; kd < k[0]; kd++)                                                                  \
              for (int64_t kh = 0; kh < k[1]; kh++)                                                                \
                for (int64_t kw = 0; kw < k[2]; kw++)                                                              \
                  CONV_TAP(T, T, yo, xc, wc[(kd * k[1] + kh) * k[2] + kw], );                                      \
          }                                                                                                        \
        }                                                                                                          \
  }

CONV(f32, float)
CONV(f64, double)

/* ConvInteger: int32 sums of (x - x_zero_point) * (w - w_zero_point).
 * t: Y, X, W, x_zero_point, w_zero_point (either may be NULL);
 * p: N, G, C/G, M/G, w_zero_point per channel, window params. */
#define CONV_INTEGER(SUF, TX, TW)                                                                                  \
  GLOW_KERNEL(conv_integer_##SUF) {                                                                                \
    int32_t *y = (int32_t *)t[0];                                                                                  \
    const TX *x = (const TX *)t[1], *xz = (const TX *)t[3];                                                      \
    const TW *w = (const TW *)t[2], *wz = (const TW *)t[4];                                                      \
    int64_t N = p[0], G = p[1], Cg = p[2], Mg = p[3], wz_per_channel = p[4];                                       \
    int32_t xzv = xz ? (int32_t)xz[0] : 0;                                                                         \
    WIN_PARAMS(5);                                                                                                 \
    for (int64_t n = 0; n < N; n++)                                                                                \
      for (int64_t g = 0; g < G; g++)                                                                              \
        for (int64_t m = 0; m < Mg; m++) {                                                                         \
          int32_t *yo = y + ((n * G + g) * Mg + m) * osz;                                                          \
          int32_t wzv = wz ? (int32_t)wz[wz_per_channel ? g * Mg + m : 0] : 0;                                     \
          for (int64_t i = 0; i < osz; i++)                                                                        \
            yo[i] = 0;                                                                                             \
          for (int64_t c = 0; c < Cg; c++) {                                                                       \
            const TX *xc = x + ((n * G + g) * Cg + c) * isz;                                                       \
            const TW *wc = w + ((g * Mg + m) * Cg + c) * ksz;                                                      \
            for (int64_t kd = 0; kd < k[0]; kd++)                                                                  \
              for (int64_t kh = 0; kh < k[1]; kh++)                                                                \
                for (int64_t kw = 0; kw < k[2]; kw++)                                                              \
                  CONV_TAP(int32_t, int32_t, yo, xc, (int32_t)wc[(kd * k[1] + kh) * k[2] + kw] - wzv, -xzv);     \
          }                                                                                                        \
        }                                                                                                          \
  }

CONV_INTEGER(u8_u8, uint8_t, uint8_t)
CONV_INTEGER(u8_i8, uint8_t, int8_t)
CONV_INTEGER(i8_u8, int8_t, uint8_t)
CONV_INTEGER(i8_i8, int8_t, int8_t)
