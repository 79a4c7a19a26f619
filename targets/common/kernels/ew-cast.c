/* Cast between every pair of numeric types and bool, and Where.
 * Float to integer truncates toward zero (out of range is undefined, as in
 * ONNX); anything to bool is "!= 0"; to float16 and bfloat16 rounds to
 * nearest even, once. */
#include "kernels/elementwise.h"

/* t: out, in; p: numel */
#define K_CAST(to, from)                                                                                     \
  GLOW_KERNEL(cast_##from##_##to) {                                                                          \
    GLOW_EW_T(to) *o = (GLOW_EW_T(to) *)t[0];                                                                \
    const GLOW_EW_T(from) *x = (const GLOW_EW_T(from) *)t[1];                                                \
    for (int64_t i = 0, n = p[0]; i < n; i++)                                                                \
      o[i] = GLOW_EW_CV(to, GLOW_EW_LD(from, x[i]));                                                         \
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

/* Where by element size in bits: only bytes move.
 * t: out, cond, x, y; p: r, dims[r], cond_strides[r], x_strides[r], y_strides[r]. */
#define K_WHERE(bits)                                                                                        \
  GLOW_KERNEL(where_##bits) {                                                                                \
    uint##bits##_t *o = (uint##bits##_t *)t[0];                                                              \
    const uint8_t *c = t[1];                                                                                 \
    const uint##bits##_t *x = (const uint##bits##_t *)t[2], *y = (const uint##bits##_t *)t[3];              \
    GLOW_EW_FOR(3, p[0], p + 1, p + 1 + p[0], {                                                              \
      uint##bits##_t m = (uint##bits##_t)(0 - (uint##bits##_t)(c[at[0]] != 0)); /* a mask: no branch */       \
      o[i] = (uint##bits##_t)((x[at[1]] & m) | (y[at[2]] & ~m));                                             \
    });                                                                                                      \
  }
K_WHERE(8)
K_WHERE(16)
K_WHERE(32)
K_WHERE(64)
