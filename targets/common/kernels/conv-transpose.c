/* Transposed convolution, N x C x [D x [H x]] W layout; spatial axes right-aligned to 3. */
#include "kernel.h"
#include "kmath.h"
#include "kernels/nn-vec.h"

/* Each input position scatters x * w to the outputs its taps reach; per tap
 * the input positions whose output lands inside form a range on each axis.
 * t: Y, X, W, B (B may be NULL); p: glow_abi_conv (kernel-abi.h) up to its
 * epilogue, the window's in: X's extents, out: Y's. */
#define CONV_TRANSPOSE(SUF, T)                                                                                         \
  GLOW_KERNEL(conv_transpose_##SUF) {                                                                                  \
    T *y = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1], *w = (const T *)t[2], *b = (const T *)t[3];                                          \
    const glow_abi_conv *cp = (const glow_abi_conv *)p;                                                                \
    int64_t N = cp->N, G = cp->G, Cg = cp->Cg, Mg = cp->Mg;                                                            \
    const int64_t *in = cp->w.in, *out = cp->w.out, *k = cp->w.k, *s = cp->w.s, *d = cp->w.d, *pb = cp->w.pb;          \
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

/* Float32: for every (output channel, tap) row i = m * taps + tap of W^T, the
 * products Z[i][pixel] = sum_c W[c][i] * X[c][pixel] are formed in registers,
 * CT_MR rows by 16 input pixels (one vector, accumulated over the input
 * channels), then added to the outputs those pixels reach through that tap.
 * t: Y, X, W, B (B may be NULL); p: as glow_k_conv_transpose_f32. */
#define CT_MR 6

GLOW_KERNEL(conv_transpose_fast_f32) {
  float *y = (float *)t[0];
  const float *x = (const float *)t[1], *w = (const float *)t[2], *b = (const float *)t[3];
  const glow_abi_conv *cp = (const glow_abi_conv *)p;
  int64_t N = cp->N, G = cp->G, Cg = cp->Cg, Mg = cp->Mg;
  const int64_t *in = cp->w.in, *out = cp->w.out, *k = cp->w.k, *s = cp->w.s, *d = cp->w.d, *pb = cp->w.pb;
  int64_t isz = in[0] * in[1] * in[2], osz = out[0] * out[1] * out[2], ksz = k[0] * k[1] * k[2], rows = Mg * ksz;
  for (int64_t n = 0; n < N; n++)
    for (int64_t g = 0; g < G; g++) {
      const float *xg = x + (n * G + g) * Cg * isz, *wg = w + g * Cg * rows;
      float *yg = y + (n * G + g) * Mg * osz;
      for (int64_t m = 0; m < Mg; m++)
        for (int64_t i = 0; i < osz; i++)
          yg[m * osz + i] = b ? b[g * Mg + m] : 0.0f;
      for (int64_t p0 = 0; p0 < isz; p0 += 16) {
        int64_t np = isz - p0 < 16 ? isz - p0 : 16, id[16], ih[16], iw[16];
        for (int j = 0; j < np; j++) {
          int64_t q = p0 + j;
          iw[j] = q % in[2];
          ih[j] = q / in[2] % in[1];
          id[j] = q / in[2] / in[1];
        }
        for (int64_t i0 = 0; i0 < rows; i0 += CT_MR) {
          int64_t row[CT_MR];
          glow_nn_v16 acc[CT_MR];
          for (int r = 0; r < CT_MR; r++) {
            row[r] = i0 + r < rows ? i0 + r : rows - 1;
            acc[r] = (glow_nn_v16){0};
          }
          for (int64_t c = 0; c < Cg; c++) {
            glow_nn_v16 xv;
            if (np == 16) {
              xv = *(const glow_nn_v16 *)(xg + c * isz + p0);
            } else {
              for (int j = 0; j < 16; j++)
                xv[j] = j < np ? xg[c * isz + p0 + j] : 0.0f;
            }
            for (int r = 0; r < CT_MR; r++)
              acc[r] += wg[c * rows + row[r]] * xv;
          }
          for (int r = 0; r < CT_MR && i0 + r < rows; r++) {
            int64_t m = row[r] / ksz, tap = row[r] % ksz;
            int64_t kw = tap % k[2], kh = tap / k[2] % k[1], kd = tap / k[2] / k[1];
            float *ym = yg + m * osz;
            for (int j = 0; j < np; j++) {
              int64_t od = id[j] * s[0] + d[0] * kd - pb[0], oh = ih[j] * s[1] + d[1] * kh - pb[1];
              int64_t ow = iw[j] * s[2] + d[2] * kw - pb[2];
              if ((uint64_t)od < (uint64_t)out[0] && (uint64_t)oh < (uint64_t)out[1] && (uint64_t)ow < (uint64_t)out[2])
                ym[(od * out[1] + oh) * out[2] + ow] += acc[r][j];
            }
          }
        }
      }
    }
}
