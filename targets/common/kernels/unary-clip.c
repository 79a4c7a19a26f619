/* Clip, PRelu and Dropout (inference). float16 and bfloat16 compute in float. */
#include "kernel.h"
#include "kmath.h"

#include "kernels/float-types.h"
#define INT_TYPE(s, T, C)                                                                                    \
  typedef T T_##s;                                                                                           \
  typedef C C_##s;
INT_TYPE(i8, int8_t, int64_t)
INT_TYPE(i16, int16_t, int64_t)
INT_TYPE(i32, int32_t, int64_t)
INT_TYPE(i64, int64_t, int64_t)
INT_TYPE(u8, uint8_t, uint64_t)
INT_TYPE(u16, uint16_t, uint64_t)
INT_TYPE(u32, uint32_t, uint64_t)
INT_TYPE(u64, uint64_t, uint64_t)
#define LD_INT(v) (v)
#define LD_i8 LD_INT
#define LD_i16 LD_INT
#define LD_i32 LD_INT
#define LD_i64 LD_INT
#define LD_u8 LD_INT
#define LD_u16 LD_INT
#define LD_u32 LD_INT
#define LD_u64 LD_INT
#define ST_i8 LD_INT
#define ST_i16 LD_INT
#define ST_i32 LD_INT
#define ST_i64 LD_INT
#define ST_u8 LD_INT
#define ST_u16 LD_INT
#define ST_u32 LD_INT
#define ST_u64 LD_INT
/* A bound packed in p: the bits of a double for float types, the value for integers. */
#define PV_FLOAT(v) glow_pf(v)
#define PV_INT(v) (v)

/* y = min(max(x, lo), hi); lo > hi gives hi, NaN stays NaN (as numpy's clip).
 * t: out, x, min, max (tensors, NULL if omitted); p: glow_abi_clip. */
#define CLIP(s, PV)                                                                                          \
  GLOW_KERNEL(clip_##s) {                                                                                    \
    T_##s *o = (T_##s *)t[0];                                                                                \
    const T_##s *x = (const T_##s *)t[1];                                                                    \
    const glow_abi_clip *ap = (const glow_abi_clip *)p;                                                      \
    C_##s lo = ap->min_mode == 2 ? LD_##s(*(const T_##s *)t[2]) : (C_##s)PV(ap->min);                        \
    C_##s hi = ap->max_mode == 2 ? LD_##s(*(const T_##s *)t[3]) : (C_##s)PV(ap->max);                        \
    int has_lo = ap->min_mode != 0, has_hi = ap->max_mode != 0;                                              \
    for (int64_t i = 0; i < ap->n; i++) {                                                                    \
      C_##s v = LD_##s(x[i]);                                                                                \
      v = has_lo && v < lo ? lo : v;                                                                         \
      o[i] = ST_##s(has_hi && v > hi ? hi : v);                                                              \
    }                                                                                                        \
  }
CLIP(f32, PV_FLOAT)
CLIP(f64, PV_FLOAT)
CLIP(f16, PV_FLOAT)
CLIP(bf16, PV_FLOAT)
CLIP(i8, PV_INT)
CLIP(i16, PV_INT)
CLIP(i32, PV_INT)
CLIP(i64, PV_INT)
CLIP(u8, PV_INT)
CLIP(u16, PV_INT)
CLIP(u32, PV_INT)
CLIP(u64, PV_INT)

/* y = x < 0 ? x * slope : x, slope broadcast to x's shape (integers wrap).
 * t: out, x, slope; p: glow_abi_ew of the slope (r >= 1). */
#define PRELU(s, MUL)                                                                                        \
  GLOW_KERNEL(prelu_##s) {                                                                                   \
    T_##s *o = (T_##s *)t[0];                                                                                \
    const T_##s *x = (const T_##s *)t[1], *sl = (const T_##s *)t[2];                                         \
    const glow_abi_ew *ap = (const glow_abi_ew *)p;                                                          \
    const int64_t *dims = ap->dims, *ss = GLOW_ABI_EW_STRIDES(ap);                                           \
    int64_t r = ap->r, inner = dims[r - 1], is = ss[r - 1], outer = 1, idx[8] = {0}, so = 0;                 \
    for (int64_t d = 0; d < r - 1; d++)                                                                      \
      outer *= dims[d];                                                                                      \
    for (int64_t i = 0; i < outer; i++) {                                                                    \
      const T_##s *xi = x + i * inner, *si = sl + so;                                                        \
      T_##s *oi = o + i * inner;                                                                             \
      for (int64_t j = 0; j < inner; j++) {                                                                  \
        C_##s v = LD_##s(xi[j]);                                                                             \
        oi[j] = v < 0 ? ST_##s(MUL(v, LD_##s(si[j * is]))) : xi[j];                                          \
      }                                                                                                      \
      for (int64_t d = r - 2; d >= 0; d--) {                                                                 \
        so += ss[d];                                                                                         \
        if (++idx[d] < dims[d])                                                                              \
          break;                                                                                             \
        so -= ss[d] * dims[d];                                                                               \
        idx[d] = 0;                                                                                          \
      }                                                                                                      \
    }                                                                                                        \
  }
#define MUL_F(a, b) ((a) * (b))
#define MUL_I(a, b) (C_i64)((uint64_t)(a) * (uint64_t)(b))
PRELU(f32, MUL_F)
PRELU(f64, MUL_F)
PRELU(f16, MUL_F)
PRELU(bf16, MUL_F)
PRELU(i8, MUL_I)
PRELU(i16, MUL_I)
PRELU(i32, MUL_I)
PRELU(i64, MUL_I)

/* Dropout in inference: y = x and a mask of ones (bool true, or 1 in x's type
 * before opset 10). t: y, mask, x; p: glow_abi_dropout. */
GLOW_KERNEL(dropout) {
  uint8_t *y = t[0], *m = t[1];
  const uint8_t *x = t[2];
  const glow_abi_dropout *ap = (const glow_abi_dropout *)p;
  for (int64_t k = 0; k < ap->x_bytes; k++)
    y[k] = x[k];
  for (int64_t i = 0; i < ap->n; i++)
    for (int64_t k = 0; k < ap->mask_size; k++)
      m[i * ap->mask_size + k] = (uint8_t)(ap->mask_bits >> (8 * k));
}
