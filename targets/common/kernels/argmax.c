/* ArgMax, ArgMin along one axis: the first extreme, or with `last` the last one.
 *
 * t: out (int64), in
 * p: glow_abi_argmax
 * With inner == 1 each row is scanned contiguously in LANES interleaved partial scans (merged by value,
 * then by index), otherwise a tile of up to TILE columns scans whole
 * rows of `inner`, keeping the best value and index per column. */
#include "kernel.h"

#define TILE 32
/* 32 partial results: several independent vector chains, so a reduction is not latency-bound. */
#define LANES 32

#define ARG(NAME, T, BETTER)                                                                                   \
  GLOW_KERNEL(NAME) {                                                                                          \
    int64_t *o = (int64_t *)t[0];                                                                              \
    const T *x = (const T *)t[1];                                                                              \
    const glow_abi_argmax *ap = (const glow_abi_argmax *)p;                                                    \
    int64_t outer = ap->outer, len = ap->len, inner = ap->inner, last = ap->last;                              \
    if (len == 0)                                                                                              \
      return;                                                                                                  \
    for (int64_t a = 0; a < outer; a++) {                                                                      \
      const T *xa = x + a * len * inner;                                                                       \
      if (inner == 1) {                                                                                        \
        T b[LANES];                                                                                            \
        int64_t bi[LANES], k = 0;                                                                              \
        for (int v = 0; v < LANES; v++) {                                                                      \
          b[v] = xa[0];                                                                                        \
          bi[v] = 0;                                                                                           \
        }                                                                                                      \
        for (; k + LANES <= len; k += LANES)                                                                   \
          for (int v = 0; v < LANES; v++) {                                                                    \
            int take = BETTER(xa[k + v], b[v]) || (last && xa[k + v] == b[v]);                                 \
            b[v] = take ? xa[k + v] : b[v];                                                                    \
            bi[v] = take ? k + v : bi[v];                                                                      \
          }                                                                                                    \
        for (; k < len; k++)                                                                                   \
          if (BETTER(xa[k], b[0]) || (last && xa[k] == b[0])) {                                                \
            b[0] = xa[k];                                                                                      \
            bi[0] = k;                                                                                         \
          }                                                                                                    \
        for (int v = 1; v < LANES; v++)                                                                        \
          if (BETTER(b[v], b[0]) || (b[v] == b[0] && (last ? bi[v] > bi[0] : bi[v] < bi[0]))) {                \
            b[0] = b[v];                                                                                       \
            bi[0] = bi[v];                                                                                     \
          }                                                                                                    \
        o[a] = bi[0];                                                                                          \
        continue;                                                                                              \
      }                                                                                                        \
      for (int64_t c0 = 0; c0 < inner; c0 += TILE) {                                                           \
        int64_t w = inner - c0 < TILE ? inner - c0 : TILE;                                                     \
        T b[TILE];                                                                                             \
        int64_t bi[TILE];                                                                                      \
        for (int64_t c = 0; c < w; c++) {                                                                      \
          b[c] = xa[c0 + c];                                                                                   \
          bi[c] = 0;                                                                                           \
        }                                                                                                      \
        for (int64_t k = 1; k < len; k++)                                                                      \
          for (int64_t c = 0; c < w; c++) {                                                                    \
            T v = xa[k * inner + c0 + c];                                                                      \
            int take = BETTER(v, b[c]) || (last && v == b[c]);                                                 \
            b[c] = take ? v : b[c];                                                                            \
            bi[c] = take ? k : bi[c];                                                                          \
          }                                                                                                    \
        for (int64_t c = 0; c < w; c++)                                                                        \
          o[a * inner + c0 + c] = bi[c];                                                                       \
      }                                                                                                        \
    }                                                                                                          \
  }

#define GT(a, b) ((a) > (b))
#define LT(a, b) ((a) < (b))
#define ARG_BOTH(S, T) ARG(argmax_##S, T, GT) ARG(argmin_##S, T, LT)

ARG_BOTH(f32, float)
ARG_BOTH(f64, double)
ARG_BOTH(i8, int8_t)
ARG_BOTH(u8, uint8_t)
ARG_BOTH(i16, int16_t)
ARG_BOTH(u16, uint16_t)
ARG_BOTH(i32, int32_t)
ARG_BOTH(u32, uint32_t)
ARG_BOTH(i64, int64_t)
ARG_BOTH(u64, uint64_t)
