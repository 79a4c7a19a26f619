/* Cast between every pair of numeric types and bool, and Where.
 * Float to integer truncates toward zero (out of range is undefined, as in
 * ONNX); anything to bool is "!= 0"; to float16 and bfloat16 rounds to
 * nearest even, once. */
#include "kernels/elementwise.h"

/* t: out, in; p: glow_abi_count */
#define K_CAST(to, from)                                                                                     \
  static inline void cast_##from##_##to(GLOW_EW_T(to) *restrict o, const GLOW_EW_T(from) *restrict x,        \
                                        int64_t n) {                                                         \
    for (int64_t i = 0; i < n; i++)                                                                          \
      o[i] = GLOW_EW_CV(to, GLOW_EW_LD(from, x[i]));                                                         \
  }                                                                                                          \
  GLOW_KERNEL(cast_##from##_##to) {                                                                          \
    const glow_abi_count *ap = (const glow_abi_count *)p;                                                    \
    cast_##from##_##to((GLOW_EW_T(to) *)t[0], (const GLOW_EW_T(from) *)t[1], ap->n);                         \
  }
#define EVERY_TARGET(from) GLOW_EW_NUMERIC(K_CAST, from) K_CAST(b8, from)
EVERY_TARGET(f32)
EVERY_TARGET(f64)
EVERY_TARGET(f16)
EVERY_TARGET(bf16)
EVERY_TARGET(i8)
EVERY_TARGET(i16)
EVERY_TARGET(i32)
EVERY_TARGET(i64)
EVERY_TARGET(u8)
EVERY_TARGET(u16)
EVERY_TARGET(u32)
EVERY_TARGET(u64)
EVERY_TARGET(b8)

/* Where by element size in bits: only bytes move, selected by a mask.
 * t: out, cond, x, y; p: glow_abi_ew of cond, x, y. */
#define K_WHERE(bits)                                                                                        \
  static inline void row_where_##bits(uint##bits##_t *restrict o, const uint8_t *restrict c,                 \
                                      const uint##bits##_t *restrict x, const uint##bits##_t *restrict y,    \
                                      int64_t len, int64_t ic, int64_t ix, int64_t iy) {                     \
    for (int64_t e = 0; e < len; e++) {                                                                      \
      uint##bits##_t m = (uint##bits##_t)(0 - (uint##bits##_t)(c[e * ic] != 0));                             \
      o[e] = (uint##bits##_t)((x[e * ix] & m) | (y[e * iy] & ~m));                                           \
    }                                                                                                        \
  }                                                                                                          \
  GLOW_KERNEL(where_##bits) {                                                                                \
    uint##bits##_t *o = (uint##bits##_t *)t[0];                                                              \
    const uint##bits##_t *x = (const uint##bits##_t *)t[2], *y = (const uint##bits##_t *)t[3];               \
    const glow_abi_ew *ap = (const glow_abi_ew *)p;                                                          \
    GLOW_EW_ROWS(3, ap->r, ap->dims, GLOW_ABI_EW_STRIDES(ap),                                                \
                 row_where_##bits(o + i, t[1] + at[0], x + at[1], y + at[2], len, inc[0], inc[1], inc[2]);); \
  }
K_WHERE(8)
K_WHERE(16)
K_WHERE(32)
K_WHERE(64)
