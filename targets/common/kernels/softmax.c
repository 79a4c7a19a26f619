/* Softmax, LogSoftmax, Hardmax over the middle extent of [outer, len, inner].
 *
 * t: out, in
 * p: glow_abi_softmax
 * Max-subtracted: exp(x - m) never overflows. With inner == 1 a row is contiguous: separate passes
 * (maximum in LANES partial results, exp into the output, sum in LANES partial results, scale) keep
 * every loop free of ordered floating-point reductions so that they vectorize. Otherwise a tile of
 * up to TILE columns walks whole rows of `inner`, keeping per-column maxima and sums. */
#include "kernel.h"
#include "kmath.h"

#define TILE 32
/* 32 partial results: several independent vector chains, so a reduction is not latency-bound. */
#define LANES 32

#define MAXOF(a, b) ((a) >= (b) || (a) != (a) ? (a) : (b))

/* Contiguous row y[0..n) of the result of x[0..n). MODE 0: softmax, 1: log-softmax, 2: hardmax. */
#define ROW(T, EXP, LOG, MODE)                                                                                 \
  {                                                                                                            \
    T l[LANES], m, s;                                                                                          \
    int64_t k = 0, first = 0;                                                                                  \
    if (MODE == 2) {                                                                                           \
      for (int64_t j = 1; j < n; j++)                                                                          \
        first = x[j] > x[first] ? j : first;                                                                   \
      for (int64_t j = 0; j < n; j++)                                                                          \
        y[j] = j == first ? (T)1 : (T)0;                                                                       \
      continue;                                                                                                \
    }                                                                                                          \
    for (int v = 0; v < LANES; v++)                                                                            \
      l[v] = x[0];                                                                                             \
    for (; k + LANES <= n; k += LANES)                                                                         \
      for (int v = 0; v < LANES; v++)                                                                          \
        l[v] = MAXOF(l[v], x[k + v]);                                                                          \
    for (; k < n; k++)                                                                                         \
      l[0] = MAXOF(l[0], x[k]);                                                                                \
    m = l[0];                                                                                                  \
    for (int v = 1; v < LANES; v++)                                                                            \
      m = MAXOF(m, l[v]);                                                                                      \
    for (int64_t j = 0; j < n; j++)                                                                            \
      y[j] = EXP(x[j] - m);                                                                                    \
    for (int v = 0; v < LANES; v++)                                                                            \
      l[v] = 0;                                                                                                \
    for (k = 0; k + LANES <= n; k += LANES)                                                                    \
      for (int v = 0; v < LANES; v++)                                                                          \
        l[v] += y[k + v];                                                                                      \
    for (; k < n; k++)                                                                                         \
      l[0] += y[k];                                                                                            \
    s = 0;                                                                                                     \
    for (int v = 0; v < LANES; v++)                                                                            \
      s += l[v];                                                                                               \
    if (MODE == 0)                                                                                             \
      for (int64_t j = 0; j < n; j++)                                                                          \
        y[j] /= s;                                                                                             \
    if (MODE == 1) {                                                                                           \
      T ls = LOG(s);                                                                                           \
      for (int64_t j = 0; j < n; j++)                                                                          \
        y[j] = (x[j] - m) - ls;                                                                                \
    }                                                                                                          \
  }

#define SOFTMAX(NAME, T, EXP, LOG, MODE)                                                                       \
  GLOW_KERNEL(NAME) {                                                                                          \
    T *o = (T *)t[0];                                                                                          \
    const T *in = (const T *)t[1];                                                                             \
    const glow_abi_softmax *ap = (const glow_abi_softmax *)p;                                                  \
    int64_t outer = ap->outer, len = ap->len, inner = ap->inner;                                               \
    if (len == 0)                                                                                              \
      return;                                                                                                  \
    for (int64_t a = 0; a < outer; a++) {                                                                      \
      const T *xa = in + a * len * inner;                                                                      \
      T *oa = o + a * len * inner;                                                                             \
      if (inner == 1) {                                                                                        \
        const T *x = xa;                                                                                       \
        T *y = oa;                                                                                             \
        int64_t n = len;                                                                                       \
        ROW(T, EXP, LOG, MODE)                                                                                 \
        continue;                                                                                              \
      }                                                                                                        \
      for (int64_t c0 = 0; c0 < inner; c0 += TILE) {                                                           \
        int64_t w = inner - c0 < TILE ? inner - c0 : TILE, first[TILE];                                        \
        T m[TILE], s[TILE];                                                                                    \
        for (int64_t c = 0; c < w; c++) {                                                                      \
          m[c] = xa[c0 + c];                                                                                   \
          s[c] = 0;                                                                                            \
          first[c] = 0;                                                                                        \
        }                                                                                                      \
        for (int64_t k = 1; k < len; k++)                                                                      \
          for (int64_t c = 0; c < w; c++) {                                                                    \
            T v = xa[k * inner + c0 + c];                                                                      \
            if (MODE == 2) {                                                                                   \
              first[c] = v > m[c] ? k : first[c];                                                              \
              m[c] = v > m[c] ? v : m[c];                                                                      \
            } else {                                                                                           \
              m[c] = MAXOF(m[c], v);                                                                           \
            }                                                                                                  \
          }                                                                                                    \
        if (MODE == 2) {                                                                                       \
          for (int64_t k = 0; k < len; k++)                                                                    \
            for (int64_t c = 0; c < w; c++)                                                                    \
              oa[k * inner + c0 + c] = k == first[c] ? (T)1 : (T)0;                                            \
          continue;                                                                                            \
        }                                                                                                      \
        for (int64_t k = 0; k < len; k++)                                                                      \
          for (int64_t c = 0; c < w; c++) {                                                                    \
            T e = EXP(xa[k * inner + c0 + c] - m[c]);                                                          \
            if (MODE == 0)                                                                                     \
              oa[k * inner + c0 + c] = e;                                                                      \
            s[c] += e;                                                                                         \
          }                                                                                                    \
        if (MODE == 1)                                                                                         \
          for (int64_t c = 0; c < w; c++)                                                                      \
            s[c] = LOG(s[c]);                                                                                  \
        for (int64_t k = 0; k < len; k++)                                                                      \
          for (int64_t c = 0; c < w; c++) {                                                                    \
            T *y = &oa[k * inner + c0 + c];                                                                    \
            *y = MODE == 0 ? *y / s[c] : (xa[k * inner + c0 + c] - m[c]) - s[c];                               \
          }                                                                                                    \
      }                                                                                                        \
    }                                                                                                          \
  }

SOFTMAX(softmax_f32, float, glow_expf_nonpos, glow_logf, 0) /* x - max <= 0 */
SOFTMAX(softmax_f64, double, glow_exp, glow_log, 0)
SOFTMAX(log_softmax_f32, float, glow_expf_nonpos, glow_logf, 1)
SOFTMAX(log_softmax_f64, double, glow_exp, glow_log, 1)
SOFTMAX(hardmax_f32, float, glow_expf, glow_logf, 2)
SOFTMAX(hardmax_f64, double, glow_exp, glow_log, 2)
