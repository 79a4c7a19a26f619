/* Reductions over a set of axes (ReduceSum, ReduceMean, ... ReduceLogSumExp).
 *
 * t: out, in
 * p: glow_abi_reduce: kept runs (extents kd, input strides ks), reduced runs (extents rd, input
 *    strides rs) and `inner`. The output is the kept runs then inner, row-major.
 * When the last axis is reduced, each output accumulates a contiguous row in LANES partial results;
 * otherwise a tile of up to TILE outputs accumulates whole input rows of `inner`. Both inner loops
 * are contiguous. Integer sums and products accumulate in 64-bit unsigned arithmetic (wrapping). */
#include "kernel.h"
#include "kmath.h"

#define TILE 32
/* 32 partial results: several independent vector chains, so a reduction is not latency-bound. */
#define LANES 32

/* Advances an odometer over n axes of extents d, keeping *off = sum(idx * s). */
static inline void glow_r_next(int64_t *idx, int64_t *off, int64_t n, const int64_t *d, const int64_t *s) {
  for (int64_t i = n - 1; i >= 0; i--) {
    *off += s[i];
    if (++idx[i] < d[i])
      return;
    *off -= s[i] * d[i];
    idx[i] = 0;
  }
}

/* Unpacks glow_abi_reduce; count is the number of elements reduced into each output. */
#define LAYOUT                                                                                                 \
  T *o = (T *)t[0];                                                                                            \
  const T *x = (const T *)t[1];                                                                                \
  const glow_abi_reduce *ap = (const glow_abi_reduce *)p;                                                      \
  int64_t nk = ap->nk, nr = GLOW_ABI_REDUCE_NR(ap);                                                            \
  const int64_t *kd = ap->kept_dims, *ks = GLOW_ABI_REDUCE_KEPT_STRIDES(ap), *rd = GLOW_ABI_REDUCE_RED_DIMS(ap); \
  const int64_t *rs = GLOW_ABI_REDUCE_RED_STRIDES(ap);                                                         \
  int64_t inner = GLOW_ABI_REDUCE_INNER(ap), rlen = rd[nr - 1], rstep = rs[nr - 1];                            \
  int64_t kn = 1, rn = 1, count = 1, ki[8] = {0}, kb = 0;                                                      \
  for (int64_t i = 0; i < nk; i++)                                                                             \
    kn *= kd[i];                                                                                               \
  for (int64_t i = 0; i < nr; i++) {                                                                           \
    count *= rd[i];                                                                                            \
    if (i < nr - 1)                                                                                            \
      rn *= rd[i];                                                                                             \
  }                                                                                                            \
  (void)count;

/* Loop over the reduced positions but the last run: xr points at the start of a reduced row. */
#define FOR_ROWS                                                                                               \
  int64_t ri[8] = {0}, rb = 0;                                                                                 \
  for (int64_t q = 0; q < rn; q++, glow_r_next(ri, &rb, nr - 1, rd, rs))

/* One reduction: accumulator type A from INIT by COMB(acc, MAP(x)), result FIN(acc). */
#define REDUCE(NAME, TT, AA, INIT, MAP, COMB, FIN)                                                             \
  GLOW_KERNEL(reduce_##NAME) {                                                                                 \
    typedef TT T;                                                                                              \
    typedef AA A;                                                                                              \
    LAYOUT                                                                                                     \
    for (int64_t kq = 0; kq < kn; kq++, glow_r_next(ki, &kb, nk, kd, ks)) {                                    \
      if (inner == 1) {                                                                                        \
        A l[LANES];                                                                                            \
        for (int v = 0; v < LANES; v++)                                                                        \
          l[v] = INIT;                                                                                         \
        FOR_ROWS {                                                                                             \
          const T *xr = x + kb + rb;                                                                           \
          int64_t j = 0;                                                                                       \
          for (; j + LANES <= rlen; j += LANES)                                                                \
            for (int v = 0; v < LANES; v++)                                                                    \
              l[v] = COMB(l[v], MAP(xr[(j + v) * rstep]));                                                     \
          for (; j < rlen; j++)                                                                                \
            l[0] = COMB(l[0], MAP(xr[j * rstep]));                                                             \
        }                                                                                                      \
        for (int v = 1; v < LANES; v++)                                                                        \
          l[0] = COMB(l[0], l[v]);                                                                             \
        *o++ = FIN(l[0]);                                                                                      \
        continue;                                                                                              \
      }                                                                                                        \
      for (int64_t c0 = 0; c0 < inner; c0 += TILE) {                                                           \
        int64_t w = inner - c0 < TILE ? inner - c0 : TILE;                                                     \
        A acc[TILE];                                                                                           \
        for (int64_t c = 0; c < w; c++)                                                                        \
          acc[c] = INIT;                                                                                       \
        FOR_ROWS {                                                                                             \
          for (int64_t j = 0; j < rlen; j++) {                                                                 \
            const T *xr = x + kb + rb + j * rstep + c0;                                                        \
            for (int64_t c = 0; c < w; c++)                                                                    \
              acc[c] = COMB(acc[c], MAP(xr[c]));                                                               \
          }                                                                                                    \
        }                                                                                                      \
        for (int64_t c = 0; c < w; c++)                                                                        \
          *o++ = FIN(acc[c]);                                                                                  \
      }                                                                                                        \
    }                                                                                                          \
  }

/* log(sum(exp(x))) as m + log(sum(exp(x - m))), m the maximum: a max pass, then a sum pass.
 * An infinite or NaN maximum is the result itself (m - m is then NaN, not 0). */
#define LSE_FIN(m, s, LOG) ((m) - (m) != 0 ? (m) : (m) + LOG(s))
#define REDUCE_LSE(NAME, TT, EXP, LOG)                                                                         \
  GLOW_KERNEL(reduce_##NAME) {                                                                                 \
    typedef TT T;                                                                                              \
    typedef TT A;                                                                                              \
    LAYOUT                                                                                                     \
    for (int64_t kq = 0; kq < kn; kq++, glow_r_next(ki, &kb, nk, kd, ks)) {                                    \
      if (inner == 1) {                                                                                        \
        A l[LANES], m, s = 0;                                                                                  \
        for (int v = 0; v < LANES; v++)                                                                        \
          l[v] = -(A)__builtin_inf();                                                                          \
        {                                                                                                      \
          FOR_ROWS {                                                                                           \
            const T *xr = x + kb + rb;                                                                         \
            int64_t j = 0;                                                                                     \
            for (; j + LANES <= rlen; j += LANES)                                                              \
              for (int v = 0; v < LANES; v++)                                                                  \
                l[v] = FMAX(l[v], xr[(j + v) * rstep]);                                                        \
            for (; j < rlen; j++)                                                                              \
              l[0] = FMAX(l[0], xr[j * rstep]);                                                                \
          }                                                                                                    \
        }                                                                                                      \
        m = l[0];                                                                                              \
        for (int v = 1; v < LANES; v++)                                                                        \
          m = FMAX(m, l[v]);                                                                                   \
        for (int v = 0; v < LANES; v++)                                                                        \
          l[v] = 0;                                                                                            \
        {                                                                                                      \
          FOR_ROWS {                                                                                           \
            const T *xr = x + kb + rb;                                                                         \
            int64_t j = 0;                                                                                     \
            for (; j + LANES <= rlen; j += LANES)                                                              \
              for (int v = 0; v < LANES; v++)                                                                  \
                l[v] += EXP(xr[(j + v) * rstep] - m);                                                          \
            for (; j < rlen; j++)                                                                              \
              l[0] += EXP(xr[j * rstep] - m);                                                                  \
          }                                                                                                    \
        }                                                                                                      \
        for (int v = 0; v < LANES; v++)                                                                        \
          s += l[v];                                                                                           \
        *o++ = LSE_FIN(m, s, LOG);                                                                             \
        continue;                                                                                              \
      }                                                                                                        \
      for (int64_t c0 = 0; c0 < inner; c0 += TILE) {                                                           \
        int64_t w = inner - c0 < TILE ? inner - c0 : TILE;                                                     \
        A m[TILE], s[TILE];                                                                                    \
        for (int64_t c = 0; c < w; c++) {                                                                      \
          m[c] = -(A)__builtin_inf();                                                                          \
          s[c] = 0;                                                                                            \
        }                                                                                                      \
        {                                                                                                      \
          FOR_ROWS {                                                                                           \
            for (int64_t j = 0; j < rlen; j++) {                                                               \
              const T *xr = x + kb + rb + j * rstep + c0;                                                      \
              for (int64_t c = 0; c < w; c++)                                                                  \
                m[c] = FMAX(m[c], xr[c]);                                                                      \
            }                                                                                                  \
          }                                                                                                    \
        }                                                                                                      \
        {                                                                                                      \
          FOR_ROWS {                                                                                           \
            for (int64_t j = 0; j < rlen; j++) {                                                               \
              const T *xr = x + kb + rb + j * rstep + c0;                                                      \
              for (int64_t c = 0; c < w; c++)                                                                  \
                s[c] += EXP(xr[c] - m[c]);                                                                     \
            }                                                                                                  \
          }                                                                                                    \
        }                                                                                                      \
        for (int64_t c = 0; c < w; c++)                                                                        \
          *o++ = LSE_FIN(m[c], s[c], LOG);                                                                     \
      }                                                                                                        \
    }                                                                                                          \
  }

#define ID(v) ((A)(v))
#define SQ(v) ((A)(v) * (A)(v))
#define ABS(v) ((v) < 0 ? (A)0 - (A)(v) : (A)(v))
#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define FMAX(a, b) ((a) >= (b) || (a) != (a) ? (a) : (b))
#define FMIN(a, b) ((a) <= (b) || (a) != (a) ? (a) : (b))
#define IMAX(a, b) ((a) >= (b) ? (a) : (b))
#define IMIN(a, b) ((a) <= (b) ? (a) : (b))
#define KEEP(a) ((T)(a))
#define MEAN(a) ((T)((a) / (A)count))
#define MEAN_S(a) ((T)(count ? (int64_t)(a) / count : 0))
#define MEAN_U(a) ((T)(count ? (a) / (uint64_t)count : 0))
#define SQRTF(a) glow_sqrtf(a)
#define SQRT(a) glow_sqrt(a)

#define REDUCE_FLOAT(S, TT, INF, SQRTX, EXP, LOG)                                                              \
  REDUCE(sum_##S, TT, TT, 0, ID, ADD, KEEP)                                                                    \
  REDUCE(mean_##S, TT, TT, 0, ID, ADD, MEAN)                                                                   \
  REDUCE(max_##S, TT, TT, -INF, ID, FMAX, KEEP)                                                                \
  REDUCE(min_##S, TT, TT, INF, ID, FMIN, KEEP)                                                                 \
  REDUCE(prod_##S, TT, TT, 1, ID, MUL, KEEP)                                                                   \
  REDUCE(l1_##S, TT, TT, 0, ABS, ADD, KEEP)                                                                    \
  REDUCE(l2_##S, TT, TT, 0, SQ, ADD, SQRTX)                                                                    \
  REDUCE(log_sum_##S, TT, TT, 0, ID, ADD, LOG)                                                                 \
  REDUCE(sum_square_##S, TT, TT, 0, SQ, ADD, KEEP)                                                             \
  REDUCE_LSE(log_sum_exp_##S, TT, EXP, LOG)

#define REDUCE_INT(S, TT, AA, LO, HI, L1MAP, MEANFIN)                                                          \
  REDUCE(sum_##S, TT, AA, 0, ID, ADD, KEEP)                                                                    \
  REDUCE(mean_##S, TT, AA, 0, ID, ADD, MEANFIN)                                                                \
  REDUCE(max_##S, TT, TT, LO, ID, IMAX, KEEP)                                                                  \
  REDUCE(min_##S, TT, TT, HI, ID, IMIN, KEEP)                                                                  \
  REDUCE(prod_##S, TT, AA, 1, ID, MUL, KEEP)                                                                   \
  REDUCE(l1_##S, TT, AA, 0, L1MAP, ADD, KEEP)                                                                  \
  REDUCE(sum_square_##S, TT, AA, 0, SQ, ADD, KEEP)

REDUCE_FLOAT(f32, float, __builtin_inff(), SQRTF, glow_expf, glow_logf)
REDUCE_FLOAT(f64, double, __builtin_inf(), SQRT, glow_exp, glow_log)
REDUCE_INT(i32, int32_t, uint64_t, INT32_MIN, INT32_MAX, ABS, MEAN_S)
REDUCE_INT(i64, int64_t, uint64_t, INT64_MIN, INT64_MAX, ABS, MEAN_S)
REDUCE_INT(u32, uint32_t, uint64_t, 0, UINT32_MAX, ID, MEAN_U)
REDUCE_INT(u64, uint64_t, uint64_t, 0, UINT64_MAX, ID, MEAN_U)
REDUCE(max_i8, int8_t, int8_t, INT8_MIN, ID, IMAX, KEEP)
REDUCE(min_i8, int8_t, int8_t, INT8_MAX, ID, IMIN, KEEP)
REDUCE(max_u8, uint8_t, uint8_t, 0, ID, IMAX, KEEP)
REDUCE(min_u8, uint8_t, uint8_t, UINT8_MAX, ID, IMIN, KEEP)
