/* Transposed convolution, N x C x [D x [H x]] W layout; spatial axes right-aligned to 3. */
#include "kernel.h"
#include "kmath.h"

/* Each input position scatters x * w to the outputs its taps reach; per tap
 * the input positions whose output lands inside form a range on each axis.
 * t: Y, X, W, B (B may be NULL); p: N, G, C/G, M/G, in[3], out[3], k[3],
 * s[3], d[3], pb[3], pe[3] (in: X's extents, out: Y's). */
#define CONV_TRANSPOSE(SUF, T)                                                                                         \
  GLOW_KERNEL(conv_transpose_##SUF) {                                                                                  \
    T *y = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1], *w = (const T *)t[2], *b = (const T *)t[3];                                          \
    int64_t N = p[0], G = p[1], Cg = p[2], Mg = p[3];                                                                  \
    const int64_t *in = p + 4, *out = p + 7, *k = p + 10, *s = p + 13, *d = p + 16, *pb = p + 19;                      \
    int64_t isz = in[0] * in[1] * in[2], osz = out[0] * out[1] * out[2], ksz = k[0] * k[1] * k[2];                     \
    for (int64_t n = 0; n < N; n++)                                                                                    \
      for (int64_t g = 0; g < G; g++)                                                                                  \
        for (int64_t m = 0; m < Mg; m++) {                                                                             \
          T *yo = y + ((n * G + g) * Mg + m) * osz;                                                                    \
          T bias = b ? b[g * Mg + m] : (T)0;                                                                           \
          for (int64_t i = 0; i < osz; i++)                                                                            \
            yo[i] = bias;                                                                                              \
          for (int64_t c = 0; c < Cg; c++) {                                                                           \
            const T *xc = x + ((n * G + g) * Cg + c) * isz, *wc = w + ((g * Cg + c) * Mg + m) * ksz;                   \
            for (int64_t kd = 0; kd < k[0]; kd++)                                                                      \
              for (int64_t kh = 0; kh < k[1]; kh++)                                                                    \
                for (int64_t kw = 0; kw < k[2]; kw++) {                                                                \
                  T wv = wc[(kd * k[1] + kh) * k[2] + kw];                                                             \
                  int64_t d0, d1, h0, h1, w0, w1;                                                                      \
                  glow_nn_range(d[0] * kd - pb[0], s[0], out[0], in[0], &d0, &d1);                                     \
                  glow_nn_range(d[1] * kh - pb[1], s[1], out[1], in[1], &h0, &h1);                                     \
                  glow_nn_range(d[2] * kw - pb[2], s[2], out[2], in[2], &w0, &w1);                                     \
                  for (int64_t id = d0; id < d1; id++)                                                                 \
                    for (int64_t ih = h0; ih < h1; ih++) {                                                             \
                      const T *xr = xc + (id * in[1] + ih) * in[2];                                                    \
                      int64_t od = id * s[0] + kd * d[0] - pb[0], oh = ih * s[1] + kh * d[1] - pb[1];                  \
                      T *yr = yo + (od * out[1] + oh) * out[2] + kw * d[2] - pb[2];                                    \
                      for (int64_t iw = w0; iw < w1; iw++)                                                             \
                        yr[iw * s[2]] += wv * xr[iw];                                                                  \
                    }                                                                                                  \
                }                                                                                                      \
          }                                                                                                            \
        }                                                                                                              \
  }

CONV_TRANSPOSE(f32, float)
CONV_TRANSPOSE(f64, double)
