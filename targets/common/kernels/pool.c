/* Pooling over N*C planes of [D x [H x]] W; spatial axes right-aligned to 3
 * (com.microsoft's QLinearAveragePool among them).
 * p: glow_abi_pool (kernel-abi.h), nc planes and the window, then attr and
 * sign where a kernel says so. */
#include "kernel.h"
#include "kmath.h"
#include "kernels/maxpool-row.h"
#include "kernels/nn-vec.h"
#include "kernels/quant.h"

/* The parameters: glow_abi_pool (kernel-abi.h). */
#define POOL_PAR(p) ((const glow_abi_pool *)(p))

/* For every output position: the tap ranges [k*0, k*1) of its window that lie
 * inside the input, then BODY over those taps with `v` the input value. */
#define POOL_LOOP(T, x, PRE, BODY, POST) POOL_LOOP_PLANES(0, POOL_PAR(p)->nc, T, x, PRE, BODY, POST)
/* The same over planes [NC0, NC1) only: a part of the work (threads). */
#define POOL_LOOP_PLANES(NC0, NC1, T, x, PRE, BODY, POST)                                                              \
  const glow_abi_pool *par = POOL_PAR(p);                                                                              \
  const int64_t *in = par->w.in, *out = par->w.out, *k = par->w.k, *s = par->w.s, *d = par->w.d, *pb = par->w.pb,      \
                *pe = par->w.pe;                                                                                       \
  int64_t isz = in[0] * in[1] * in[2];                                                                                 \
  (void)pe;                                                                                                            \
  for (int64_t nc = (NC0), oi = (NC0) * out[0] * out[1] * out[2]; nc < (NC1); nc++)                                    \
    for (int64_t od = 0; od < out[0]; od++)                                                                            \
      for (int64_t oh = 0; oh < out[1]; oh++)                                                                          \
        for (int64_t ow = 0; ow < out[2]; ow++, oi++) {                                                                \
          int64_t kd0, kd1, kh0, kh1, kw0, kw1;                                                                        \
          int64_t bd = od * s[0] - pb[0], bh = oh * s[1] - pb[1], bw = ow * s[2] - pb[2];                              \
          glow_nn_range(bd, d[0], in[0], k[0], &kd0, &kd1);                                                            \
          glow_nn_range(bh, d[1], in[1], k[1], &kh0, &kh1);                                                            \
          glow_nn_range(bw, d[2], in[2], k[2], &kw0, &kw1);                                                            \
          PRE;                                                                                                         \
          for (int64_t kd = kd0; kd < kd1; kd++)                                                                       \
            for (int64_t kh = kh0; kh < kh1; kh++) {                                                                   \
              int64_t id = bd + kd * d[0], ih = bh + kh * d[1];                                                        \
              const T *xr = (x) + nc * isz + (id * in[1] + ih) * in[2] + bw;                                           \
              for (int64_t kw = kw0; kw < kw1; kw++) {                                                                 \
                T v = xr[kw * d[2]];                                                                                   \
                BODY;                                                                                                  \
              }                                                                                                        \
            }                                                                                                          \
          POST;                                                                                                        \
        }

/* The window is the whole input plane: one output per plane, no padding, no dilation. */
static inline int pool_whole_plane(const int64_t *p) {
  const glow_abi_pool *par = POOL_PAR(p);
  const int64_t *in = par->w.in, *out = par->w.out, *k = par->w.k, *d = par->w.d, *pb = par->w.pb, *pe = par->w.pe;
  int whole = 1;
  for (int i = 0; i < 3; i++)
    whole &= out[i] == 1 && k[i] == in[i] && d[i] == 1 && pb[i] == 0 && pe[i] == 0;
  return whole;
}

/* Part `part` of `nparts` (threads): a range of the N*C planes. */
#define POOL_PART_PLANES int64_t nc0 = POOL_PAR(p)->nc * part / nparts, nc1 = POOL_PAR(p)->nc * (part + 1) / nparts

/* An output row at a time, planes [NC0, NC1): for each tap, the output columns
 * whose input is inside X form a range, and the max over that range vectorizes
 * (v > y ? v : y, as the loop over taps: the taps of each output in the same
 * order, so NaN and signed zeros come out the same). */
#define MAXPOOL_ROW_LOOP(T, LOWEST, NC0, NC1)                                                                          \
  T *y = (T *)t[0];                                                                                                    \
  const T *x = (const T *)t[1];                                                                                        \
  const glow_abi_pool *par = POOL_PAR(p);                                                                              \
  const int64_t *in = par->w.in, *out = par->w.out, *k = par->w.k, *s = par->w.s, *d = par->w.d, *pb = par->w.pb;      \
  int64_t isz = in[0] * in[1] * in[2];                                                                                 \
  for (int64_t nc = (NC0); nc < (NC1); nc++)                                                                           \
    for (int64_t od = 0; od < out[0]; od++)                                                                            \
      for (int64_t oh = 0; oh < out[1]; oh++) {                                                                        \
        T *yr = y + ((nc * out[0] + od) * out[1] + oh) * out[2];                                                       \
        for (int64_t ow = 0; ow < out[2]; ow++)                                                                        \
          yr[ow] = LOWEST;                                                                                             \
        for (int64_t kd = 0; kd < k[0]; kd++) {                                                                        \
          int64_t id = od * s[0] + kd * d[0] - pb[0];                                                                  \
          for (int64_t kh = 0; (uint64_t)id < (uint64_t)in[0] && kh < k[1]; kh++) {                                    \
            int64_t ih = oh * s[1] + kh * d[1] - pb[1];                                                                \
            if ((uint64_t)ih >= (uint64_t)in[1])                                                                       \
              continue;                                                                                                \
            const T *xr = x + nc * isz + (id * in[1] + ih) * in[2];                                                    \
            for (int64_t kw = 0; kw < k[2]; kw++) {                                                                    \
              int64_t w0, w1, iw0 = kw * d[2] - pb[2];                                                                 \
              glow_nn_range(iw0, s[2], in[2], out[2], &w0, &w1);                                                       \
              for (int64_t ow = w0; ow < w1; ow++) {                                                                   \
                T v = xr[ow * s[2] + iw0];                                                                             \
                yr[ow] = v > yr[ow] ? v : yr[ow];                                                                      \
              }                                                                                                        \
            }                                                                                                          \
          }                                                                                                            \
        }                                                                                                              \
      }

/* float32, 2-D, horizontal stride 1 or 2, at least 16 outputs of a row whose
 * windows lie inside it: a row at a time (kernels/maxpool-row.h), its window's
 * rows inside X at most MAXPOOL_ROWS_AT_ONCE at a time. */
#define MAXPOOL_ROWS_AT_ONCE 16

static inline maxpool_row_geom maxpool_v16_geom(const int64_t *p) {
  const glow_abi_win *w = &POOL_PAR(p)->w;
  return maxpool_row_geom_of(w->in[2], w->out[2], w->k[2], w->s[2], w->d[2], w->pb[2]);
}

static inline int maxpool_v16_applies(const int64_t *p) {
  const glow_abi_win *w = &POOL_PAR(p)->w;
  maxpool_row_geom g = maxpool_v16_geom(p);
  return w->in[0] == 1 && w->k[0] == 1 && g.v1 > g.v0;
}

static inline void maxpool_v16_f32(uint8_t *const *t, const int64_t *p, int64_t nc0, int64_t nc1) {
  float *y = (float *)t[0];
  const float *x = (const float *)t[1];
  const glow_abi_pool *par = POOL_PAR(p);
  const int64_t *in = par->w.in, *out = par->w.out, *k = par->w.k, *s = par->w.s, *d = par->w.d, *pb = par->w.pb;
  int64_t IH = in[1], IW = in[2], OH = out[1], OW = out[2];
  maxpool_row_geom g = maxpool_v16_geom(p);
  const float *rows[MAXPOOL_ROWS_AT_ONCE];
  for (int64_t nc = nc0; nc < nc1; nc++)
    for (int64_t oh = 0; oh < OH; oh++) {
      int64_t kh0, kh1, bh = oh * s[1] - pb[1];
      glow_nn_range(bh, d[1], IH, k[1], &kh0, &kh1);
      for (int64_t kh = kh0, first = 1; first || kh < kh1; first = 0) {
        int64_t nr = 0;
        for (; kh < kh1 && nr < MAXPOOL_ROWS_AT_ONCE; kh++)
          rows[nr++] = x + (nc * IH + bh + kh * d[1]) * IW;
        maxpool_row_f32(y + (nc * OH + oh) * OW, rows, nr, (int)first, &g);
      }
    }
}

/* float32 2-D planes that fit two stack buffers: the plane with its padding
 * (-inf) in the first, the max over each window's columns into the second and
 * then over its rows back into the first, 16 floats at a time, and the outputs
 * read off at the strides. Where an output row is shorter than 16 (googlenet's
 * 3x3 pools on 14 x 14 and 7 x 7 planes) maxpool_v16_f32 does not apply, and
 * the loop over taps ran a row of 14 or 7 at a time: 170 us of googlenet's
 * 18 ms per pool on a Zen 5 core. Each max starts from -inf and takes its taps
 * in order as v > m ? v : m (maxps), as the loop over taps does: a NaN is
 * passed over, and of equal maxima (+0 and -0) the first in row-major tap order
 * wins, which is the first row's first column in both passes. Returns 0 where
 * it does not apply. The same scheme as the integer types' maxpool_planes
 * below, in explicit vectors: that macro's loops start each max from the first
 * tap, which would keep a NaN there, and started from -inf they ran 10-13%
 * slower on 14 x 14 and 7 x 7 (Zen 5, 528 and 832 planes alone). */
#define MAXPOOL_F32_FLOATS (GLOW_STACK_PANEL_FLOATS / 2) /* per buffer: two of them, one panel */

static inline int maxpool_planes_f32(uint8_t *const *t, const int64_t *p, int64_t nc0, int64_t nc1) {
  const glow_abi_pool *par = POOL_PAR(p);
  const int64_t *in = par->w.in, *out = par->w.out, *k = par->w.k, *s = par->w.s, *d = par->w.d, *pb = par->w.pb;
  int64_t IH = in[1], IW = in[2], OH = out[1], OW = out[2], KH = k[1], KW = k[2], dh = d[1], dw = d[2];
  int64_t PH = (OH - 1) * s[1] + (KH - 1) * dh + 1, PW = (OW - 1) * s[2] + (KW - 1) * dw + 1, n = PH * PW;
  if (in[0] != 1 || k[0] != 1 || OH < 1 || OW < 1 || n > MAXPOOL_F32_FLOATS)
    return 0;
  float *y = (float *)t[0], b[MAXPOOL_F32_FLOATS], h[MAXPOOL_F32_FLOATS];
  const float *x = (const float *)t[1];
  const float lowest = -__builtin_inff();
  int64_t hn = n - (KW - 1) * dw, vn = (OH - 1) * s[1] * PW + (OW - 1) * s[2] + 1, c0, c1;
  glow_nn_range(-pb[2], 1, IW, PW, &c0, &c1); /* the buffer's columns inside X */
  for (int64_t nc = nc0; nc < nc1; nc++) {
    const float *xp = x + nc * IH * IW;
    for (int64_t r = 0; r < PH; r++) { /* the padding, then X's columns as one run */
      int64_t ih = r - pb[1], a = (uint64_t)ih < (uint64_t)IH ? c0 : PW, e = a < PW ? c1 : PW;
      float *br = b + r * PW;
      const float *xr = a < PW ? xp + ih * IW : xp; /* X's row ih, whose column c - pb[2] is br[c] */
      for (int64_t c = 0; c < a; c++)
        br[c] = lowest;
      for (int64_t c = a; c < e; c++)
        br[c] = xr[c - pb[2]];
      for (int64_t c = e; c < PW; c++)
        br[c] = lowest;
    }
    int64_t j = 0;
    for (; j + 16 <= hn; j += 16) { /* reads b below n: the last window's columns end there */
      glow_nn_v16 m = (glow_nn_v16){0} + lowest;
      for (int64_t kw = 0; kw < KW; kw++) {
        glow_nn_v16 v = *(const glow_nn_v16 *)(b + j + kw * dw);
        m = GLOW_POOL_MAX16(v, m);
      }
      *(glow_nn_v16 *)(h + j) = m;
    }
    for (; j < hn; j++) {
      float m = lowest;
      for (int64_t kw = 0; kw < KW; kw++)
        m = b[j + kw * dw] > m ? b[j + kw * dw] : m;
      h[j] = m;
    }
    for (j = 0; j + 16 <= vn; j += 16) { /* reads h below hn: the last output's window ends there */
      glow_nn_v16 m = (glow_nn_v16){0} + lowest;
      for (int64_t kh = 0; kh < KH; kh++) {
        glow_nn_v16 v = *(const glow_nn_v16 *)(h + j + kh * dh * PW);
        m = GLOW_POOL_MAX16(v, m);
      }
      *(glow_nn_v16 *)(b + j) = m;
    }
    for (; j < vn; j++) {
      float m = lowest;
      for (int64_t kh = 0; kh < KH; kh++)
        m = h[j + kh * dh * PW] > m ? h[j + kh * dh * PW] : m;
      b[j] = m;
    }
    /* The outputs: every s[2]-th column of every s[1]-th row; 16 at a time from whole vectors
     * of b (stride 2: the even lanes of two), else one by one. Not LLVM's gathers and scatters
     * (it vectorized the loop across rows with them: 290 ns a 13 x 13 plane on Zen 5). */
    float *yp = y + nc * OH * OW;
    for (int64_t oh = 0; oh < OH; oh++) {
      const float *br = b + oh * s[1] * PW;
      float *yr = yp + oh * OW;
      int64_t ow = 0;
      for (; (s[2] == 1 || s[2] == 2) && ow < OW && (ow + 16) * s[2] <= MAXPOOL_F32_FLOATS - (br - b); ow += 16) {
        glow_nn_v16 v = GLOW_NN_LOAD16_S(br + ow * s[2], s[2]);
        if (ow + 16 <= OW)
          *(glow_nn_v16 *)(yr + ow) = v;
        else /* a row's last outputs (all of a row of 13): lanes of the vector, not a gather */
          for (int64_t j = 0; j < OW - ow; j++)
            yr[ow + j] = v[j];
      }
#pragma clang loop vectorize(disable)
      for (; ow < OW; ow++)
        yr[ow] = br[ow * s[2]];
    }
  }
  return 1;
}

/* Floats: float32 2-D by maxpool_v16_f32 where it applies (rows of 16 outputs
 * or more: faster than the planes on googlenet's 28 x 28 and 56 x 56, 1.5-2x),
 * else by maxpool_planes_f32 where a plane fits; the rest a row at a time;
 * planes split into parts (threads). t: Y, X */
#define MAXPOOL(SUF, T, LOWEST, V16)                                                                                   \
  GLOW_KERNEL_PART(maxpool_##SUF) {                                                                                    \
    POOL_PART_PLANES;                                                                                                  \
    if (V16 && maxpool_v16_applies(p)) {                                                                               \
      maxpool_v16_f32(t, p, nc0, nc1);                                                                                 \
      return;                                                                                                          \
    }                                                                                                                  \
    if (V16 && maxpool_planes_f32(t, p, nc0, nc1))                                                                     \
      return;                                                                                                          \
    MAXPOOL_ROW_LOOP(T, LOWEST, nc0, nc1)                                                                              \
  }                                                                                                                    \
  GLOW_KERNEL(maxpool_##SUF) { glow_k_maxpool_##SUF##_part(t, p, 0, 1); }

MAXPOOL(f32, float, -__builtin_inff(), 1)
MAXPOOL(f64, double, -__builtin_inf(), 0)

/* int8, uint8 and int16 on 2-D planes that fit two stack buffers (most quantized
 * models' pools): the plane goes into the first buffer with its padding (LOWEST, which
 * no window's max can come from unless all its taps are padding, as in the loops above),
 * in rows PW wide; then the max over each window's columns is one loop over the whole
 * buffer, and the max over its rows another: long runs that vectorize, where the loops
 * above ran an output row (googlenet's 28, 14 and 7) or an output at a time. The
 * outputs are then read off at the strides. An integer max is the same in any order.
 * Measured in googlenet's int8 bundle on a Sapphire Rapids core: its 3x3 MaxPools, 4.8 of
 * 13 ms. Returns 0 where it does not apply. */
#define MAXPOOL_Q_BYTES (GLOW_STACK_PANEL_FLOATS * 2) /* per buffer: two of them, one panel */

#define MAXPOOL_PLANES(SUF, T, LOWEST)                                                                                 \
  static inline int maxpool_planes_##SUF(uint8_t *const *t, const int64_t *p, int64_t nc0, int64_t nc1) {             \
    const glow_abi_pool *par = POOL_PAR(p);                                                                            \
    const int64_t *in = par->w.in, *out = par->w.out, *k = par->w.k, *s = par->w.s, *d = par->w.d, *pb = par->w.pb;    \
    int64_t IH = in[1], IW = in[2], OH = out[1], OW = out[2], KH = k[1], KW = k[2], dh = d[1], dw = d[2];              \
    int64_t PH = (OH - 1) * s[1] + (KH - 1) * dh + 1, PW = (OW - 1) * s[2] + (KW - 1) * dw + 1, n = PH * PW;            \
    if (in[0] != 1 || k[0] != 1 || OH < 1 || OW < 1 || n > MAXPOOL_Q_BYTES / (int64_t)sizeof(T))                      \
      return 0;                                                                                                        \
    T *y = (T *)t[0], b[MAXPOOL_Q_BYTES / sizeof(T)], h[MAXPOOL_Q_BYTES / sizeof(T)];                                  \
    const T *x = (const T *)t[1];                                                                                      \
    int64_t hn = n - (KW - 1) * dw, vn = (OH - 1) * s[1] * PW + (OW - 1) * s[2] + 1, c0, c1;                           \
    glow_nn_range(-pb[2], 1, IW, PW, &c0, &c1); /* the buffer's columns inside X */                                    \
    for (int64_t nc = nc0; nc < nc1; nc++) {                                                                           \
      const T *xp = x + nc * IH * IW;                                                                                  \
      for (int64_t r = 0; r < PH; r++) {                                                                               \
        int64_t ih = r - pb[1];                                                                                        \
        T *br = b + r * PW;                                                                                            \
        int ok = (uint64_t)ih < (uint64_t)IH;                                                                          \
        for (int64_t c = 0; c < PW; c++)                                                                               \
          br[c] = ok && c >= c0 && c < c1 ? xp[ih * IW + c - pb[2]] : (T)(LOWEST);                                     \
      }                                                                                                                \
      for (int64_t j = 0; j < hn; j++) {                                                                               \
        T m = b[j];                                                                                                    \
        for (int64_t kw = 1; kw < KW; kw++)                                                                            \
          m = b[j + kw * dw] > m ? b[j + kw * dw] : m;                                                                 \
        h[j] = m;                                                                                                      \
      }                                                                                                                \
      for (int64_t j = 0; j < vn; j++) { /* reads h below hn: the last output's window ends there */                  \
        T m = h[j];                                                                                                    \
        for (int64_t kh = 1; kh < KH; kh++)                                                                            \
          m = h[j + kh * dh * PW] > m ? h[j + kh * dh * PW] : m;                                                       \
        b[j] = m;                                                                                                      \
      }                                                                                                                \
      T *yp = y + nc * OH * OW;                                                                                        \
      for (int64_t oh = 0; oh < OH; oh++)                                                                              \
        for (int64_t ow = 0; ow < OW; ow++)                                                                            \
          yp[oh * OW + ow] = b[oh * s[1] * PW + ow * s[2]];                                                            \
    }                                                                                                                  \
    return 1;                                                                                                          \
  }

/* Quantized MaxPool (the max commutes with the quantization, so it works on the
 * integers directly; int16 exactly in float too), planes [nc0, nc1) (threads: a part's
 * range of the N*C planes): maxpool_planes where it applies; else rows of 32 outputs or
 * more a row at a time (for each tap, the output columns whose input is inside X form
 * a range, and the max over that range vectorizes), shorter rows over taps with the
 * max in float (maxss; an integer max became a compare and branch, mispredicted on
 * real activations). t: Y, X */
#define MAXPOOL_ROWS(SUF, T, LOWEST)                                                                                   \
  MAXPOOL_PLANES(SUF, T, LOWEST)                                                                                       \
  GLOW_KERNEL_PART(maxpool_##SUF) {                                                                                    \
    POOL_PART_PLANES;                                                                                                  \
    if (maxpool_planes_##SUF(t, p, nc0, nc1))                                                                          \
      return;                                                                                                          \
    if (POOL_PAR(p)->w.out[2] < 32) {                                                                                  \
      T *y = (T *)t[0];                                                                                                \
      POOL_LOOP_PLANES(nc0, nc1, T, (const T *)t[1], float acc = LOWEST, acc = (float)v > acc ? (float)v : acc,        \
                       y[oi] = (T)acc)                                                                                 \
      return;                                                                                                          \
    }                                                                                                                  \
    MAXPOOL_ROW_LOOP(T, LOWEST, nc0, nc1)                                                                              \
  }                                                                                                                    \
  GLOW_KERNEL(maxpool_##SUF) { glow_k_maxpool_##SUF##_part(t, p, 0, 1); }

MAXPOOL_ROWS(u8, uint8_t, 0)
MAXPOOL_ROWS(i8, int8_t, -128)
MAXPOOL_ROWS(i16, int16_t, -32768)

/* Indices: flat positions in X, row-major or (storage_order 1) column-major
 * over the spatial axes. t: Y, Indices, X; p: common, storage_order */
#define MAXPOOL_INDICES(SUF, T, LOWEST)                                                                                \
  GLOW_KERNEL(maxpool_indices_##SUF) {                                                                                 \
    T *y = (T *)t[0];                                                                                                  \
    int64_t *ix = (int64_t *)t[1], colmajor = POOL_PAR(p)->attr;                                                       \
    POOL_LOOP(                                                                                                         \
        T, (const T *)t[2], T acc = LOWEST; int64_t arg = -1,                                                          \
                                            {                                                                          \
                                              if (v > acc || arg < 0) {                                                \
                                                int64_t iw = bw + kw * d[2];                                           \
                                                acc = v;                                                               \
                                                arg = colmajor ? (iw * in[1] + ih) * in[0] + id                        \
                                                               : (id * in[1] + ih) * in[2] + iw;                       \
                                              }                                                                        \
                                            },                                                                         \
                                            {                                                                          \
                                              y[oi] = acc;                                                             \
                                              ix[oi] = nc * isz + arg;                                                 \
                                            })                                                                         \
  }

MAXPOOL_INDICES(f32, float, -__builtin_inff())
MAXPOOL_INDICES(f64, double, -__builtin_inf())
MAXPOOL_INDICES(u8, uint8_t, 0)
MAXPOOL_INDICES(i8, int8_t, -128)
MAXPOOL_INDICES(i16, int16_t, -32768)

/* The sum of x[0..n): 64 running sums (four vectors), added up at the end. A
 * serial sum waits an add's latency per element: GlobalAveragePool took ~1 ns
 * a float that way (efficientnet_b0's squeeze-excite blocks, 1.7 ms). */
static inline float pool_sum_f32(const float *x, int64_t n) {
  glow_nn_v16 a[4] = {{0}, {0}, {0}, {0}};
  int64_t i = 0;
  for (; i + 64 <= n; i += 64)
    for (int q = 0; q < 4; q++)
      a[q] += *(const glow_nn_v16 *)(x + i + 16 * q);
  for (; i + 16 <= n; i += 16)
    a[0] += *(const glow_nn_v16 *)(x + i);
  glow_nn_v16 v = (a[0] + a[1]) + (a[2] + a[3]);
  float s = 0;
  for (int j = 0; j < 16; j++)
    s += v[j];
  for (; i < n; i++)
    s += x[i];
  return s;
}

/* Taps counted: those inside the input, or (count_include_pad) inside the padded input.
 * A window that is the whole plane (GlobalAveragePool) of float32 (WHOLE_F32)
 * is summed by pool_sum_f32. t: Y, X; p: common, count_include_pad */
#define AVGPOOL(SUF, T, WHOLE_F32)                                                                                     \
  GLOW_KERNEL_PART(avgpool_##SUF);                                                                                     \
  GLOW_KERNEL(avgpool_##SUF) { glow_k_avgpool_##SUF##_part(t, p, 0, 1); }                                              \
  GLOW_KERNEL_PART(avgpool_##SUF) {                                                                                    \
    T *y = (T *)t[0];                                                                                                  \
    int64_t incl = POOL_PAR(p)->attr;                                                                                  \
    POOL_PART_PLANES;                                                                                                  \
    if (WHOLE_F32 && pool_whole_plane(p)) {                                                                            \
      const int64_t *in = POOL_PAR(p)->w.in, n = in[0] * in[1] * in[2];                                                \
      for (int64_t nc = nc0; nc < nc1; nc++)                                                                           \
        y[nc] = (T)(pool_sum_f32((const float *)t[1] + nc * n, n) / (float)n);                                         \
      return;                                                                                                          \
    }                                                                                                                  \
    POOL_LOOP_PLANES(nc0, nc1, T, (const T *)t[1], T acc = 0, acc += v, {                                              \
      int64_t cnt = (kd1 - kd0) * (kh1 - kh0) * (kw1 - kw0);                                                           \
      if (incl) {                                                                                                      \
        glow_nn_range(od *s[0], d[0], in[0] + pb[0] + pe[0], k[0], &kd0, &kd1);                                        \
        glow_nn_range(oh *s[1], d[1], in[1] + pb[1] + pe[1], k[1], &kh0, &kh1);                                        \
        glow_nn_range(ow *s[2], d[2], in[2] + pb[2] + pe[2], k[2], &kw0, &kw1);                                        \
        cnt = (kd1 - kd0) * (kh1 - kh0) * (kw1 - kw0);                                                                 \
      }                                                                                                                \
      y[oi] = cnt ? acc / (T)cnt : (T)0;                                                                               \
    })                                                                                                                 \
  }

AVGPOOL(f32, float, 1)
AVGPOOL(f64, double, 0)

/* QLinearAveragePool (compiler/ops/quant-pool.c), ONNX Runtime's float32
 * arithmetic: each tap inside X dequantized, x_scale * (x - x_zp), summed in
 * window order, divided by the count (the kernel's size with
 * count_include_pad), then y = saturate(round_half_even(avg / y_scale + y_zp)).
 * One operation per statement, so that nothing fuses.
 * t: Y, X, x_scale, x_zp, y_scale, y_zp (zero points may be NULL);
 * p: common, count_include_pad, signed */
GLOW_KERNEL(qlinear_avgpool_q8) {
  uint8_t *y = t[0];
  int64_t incl = POOL_PAR(p)->attr;
  int sgn = (int)POOL_PAR(p)->sign;
  float xs = *(const float *)t[2], ys = *(const float *)t[4];
  int32_t zx = glow_q_zero(t[3], 0, sgn);
  float zy = (float)glow_q_zero(t[5], 0, sgn);
  POOL_LOOP(uint8_t, (const uint8_t *)t[1], float acc = 0.0f,
            {
              float xv = xs * (float)((sgn ? (int32_t)(int8_t)v : (int32_t)v) - zx);
              acc = acc + xv;
            },
            {
              int64_t cnt = incl ? k[0] * k[1] * k[2] : (kd1 - kd0) * (kh1 - kh0) * (kw1 - kw0);
              float avg = acc / (float)cnt;
              float q = avg / ys;
              q = q + zy;
              y[oi] = glow_q_saturate(q, 0, sgn);
            })
}

/* (sum of |x|^p)^(1/p). t: Y, X; p: common, p */
#define LPPOOL(SUF, T)                                                                                                 \
  GLOW_KERNEL(lppool_##SUF) {                                                                                          \
    T *y = (T *)t[0];                                                                                                  \
    int64_t e = POOL_PAR(p)->attr;                                                                                     \
    POOL_LOOP(                                                                                                         \
        T, (const T *)t[1], T acc = 0,                                                                                 \
        {                                                                                                              \
          T a = v < 0 ? -v : v;                                                                                        \
          T q = a;                                                                                                     \
          for (int64_t j = 1; j < e; j++)                                                                              \
            q *= a;                                                                                                    \
          acc += q;                                                                                                    \
        },                                                                                                             \
        y[oi] = e == 1   ? acc                                                                                         \
                : e == 2 ? (T)glow_sqrt((double)acc)                                                                   \
                         : (T)glow_powf((float)acc, 1.0f / (float)e))                                                  \
  }

LPPOOL(f32, float)
LPPOOL(f64, double)
