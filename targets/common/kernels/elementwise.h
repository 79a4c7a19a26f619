/* Shared by the elementwise kernels (kernels/ew-*.c): per-dtype storage and
 * compute types, float16/bfloat16 conversions and the broadcast loop.
 *
 * Every dtype suffix s has
 *   GLOW_EW_T_s   storage type          GLOW_EW_C_s      compute type
 *   GLOW_EW_LD_s  storage -> compute    GLOW_EW_ST_s     compute -> storage
 *   GLOW_EW_U_s   type in which + - * wrap without undefined behaviour
 *   GLOW_EW_CV_s  any arithmetic value -> storage, as Cast converts
 * float16 and bfloat16 compute in float, as numpy does. */
#ifndef GLOW_KERNELS_ELEMENTWISE_H
#define GLOW_KERNELS_ELEMENTWISE_H

#include "kernel.h"
#include "kmath.h"

/* float16 <-> float without branches on the value, so loops over them
 * vectorize (after F. Giesen's half_to_float_fast5 and float_to_half_fast3_rtne). */
static inline float glow_ew_h2f(uint16_t h) {
  uint32_t o = (uint32_t)(h & 0x7fffu) << 13, e = o & (0x7c00u << 13);
  o += (127 - 15) << 23;
  if (e == 0x7c00u << 13) /* inf, NaN */
    o += (128 - 16) << 23;
  else if (e == 0) /* zero, subnormal: renormalized by a float subtraction */
    o = glow_f_bits(glow_bits_f(o + (1u << 23)) - glow_bits_f(113u << 23));
  return glow_bits_f(o | (uint32_t)(h & 0x8000u) << 16);
}

/* float -> float16, round to nearest even. */
static inline uint16_t glow_ew_f2h(float f) {
  uint32_t x = glow_f_bits(f), sign = x & 0x80000000u, o;
  x ^= sign;
  if (x >= (127u + 16) << 23) { /* overflow to inf, or NaN (kept quiet) */
    o = x > 0x7f800000u ? 0x7e00u : 0x7c00u;
  } else if (x < 113u << 23) { /* subnormal or zero: a float addition rounds at the right bit */
    float magic = glow_bits_f(((127u - 15) + (23 - 10) + 1) << 23);
    o = glow_f_bits(glow_bits_f(x) + magic) - glow_f_bits(magic);
  } else {
    uint32_t odd = (x >> 13) & 1;
    x += ((uint32_t)(15 - 127) << 23) + 0xfffu + odd;
    o = x >> 13;
  }
  return (uint16_t)(o | sign >> 16);
}

static inline float glow_ew_bf2f(uint16_t b) { return glow_bits_f((uint32_t)b << 16); }

/* float -> bfloat16, round to nearest even. */
static inline uint16_t glow_ew_f2bf(float f) {
  uint32_t x = glow_f_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fffu + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

/* double -> float rounded to odd: rounding that to a narrower type (float16,
 * bfloat16) then rounds once, as a direct conversion from double would. */
static inline float glow_ew_d2f_odd(double d) {
  float f = (float)d;
  uint32_t x = glow_f_bits(f);
  if ((double)f != d && f == f && !(x & 1)) {
    double ad = d < 0 ? -d : d, af = f < 0 ? -f : f;
    x = ad > af ? x + 1 : x - 1;
  }
  return glow_bits_f(x);
}

#define GLOW_EW_TYPE(s, T, C, U)                                                                             \
  typedef T glow_ew_t_##s;                                                                                   \
  typedef C glow_ew_c_##s;                                                                                   \
  typedef U glow_ew_u_##s;
GLOW_EW_TYPE(f32, float, float, float)
GLOW_EW_TYPE(f64, double, double, double)
GLOW_EW_TYPE(f16, uint16_t, float, float)
GLOW_EW_TYPE(bf16, uint16_t, float, float)
GLOW_EW_TYPE(i8, int8_t, int32_t, uint32_t)
GLOW_EW_TYPE(i16, int16_t, int32_t, uint32_t)
GLOW_EW_TYPE(i32, int32_t, int32_t, uint32_t)
GLOW_EW_TYPE(i64, int64_t, int64_t, uint64_t)
GLOW_EW_TYPE(u8, uint8_t, uint32_t, uint32_t)
GLOW_EW_TYPE(u16, uint16_t, uint32_t, uint32_t)
GLOW_EW_TYPE(u32, uint32_t, uint32_t, uint32_t)
GLOW_EW_TYPE(u64, uint64_t, uint64_t, uint64_t)
GLOW_EW_TYPE(b8, uint8_t, uint32_t, uint32_t)
#undef GLOW_EW_TYPE
#define GLOW_EW_T(s) glow_ew_t_##s
#define GLOW_EW_C(s) glow_ew_c_##s
#define GLOW_EW_U(s) glow_ew_u_##s

/* Storage <-> compute, and Cast's conversion of any arithmetic value. */
#define GLOW_EW_LD(s, x) GLOW_EW_LD_##s(x)
#define GLOW_EW_ST(s, x) GLOW_EW_ST_##s(x)
#define GLOW_EW_CV(s, x) GLOW_EW_CV_##s(x)
#define GLOW_EW_LD_f16(x) glow_ew_h2f(x)
#define GLOW_EW_ST_f16(x) glow_ew_f2h(x)
#define GLOW_EW_CV_f16(x) glow_ew_f2h(glow_ew_d2f_odd((double)(x)))
#define GLOW_EW_LD_bf16(x) glow_ew_bf2f(x)
#define GLOW_EW_ST_bf16(x) glow_ew_f2bf(x)
#define GLOW_EW_CV_bf16(x) glow_ew_f2bf(glow_ew_d2f_odd((double)(x)))
#define GLOW_EW_LD_b8(x) ((uint32_t)((x) != 0))
#define GLOW_EW_ST_b8(x) ((uint8_t)((x) != 0))
#define GLOW_EW_CV_b8(x) ((uint8_t)((x) != 0))
#define GLOW_EW_LD_f32(x) (x)
#define GLOW_EW_LD_f64(x) (x)
#define GLOW_EW_LD_i8(x) ((int32_t)(x))
#define GLOW_EW_LD_i16(x) ((int32_t)(x))
#define GLOW_EW_LD_i32(x) (x)
#define GLOW_EW_LD_i64(x) (x)
#define GLOW_EW_LD_u8(x) ((uint32_t)(x))
#define GLOW_EW_LD_u16(x) ((uint32_t)(x))
#define GLOW_EW_LD_u32(x) (x)
#define GLOW_EW_LD_u64(x) (x)
#define GLOW_EW_ST_f32(x) ((float)(x))
#define GLOW_EW_ST_f64(x) ((double)(x))
#define GLOW_EW_ST_i8(x) ((int8_t)(x))
#define GLOW_EW_ST_i16(x) ((int16_t)(x))
#define GLOW_EW_ST_i32(x) ((int32_t)(x))
#define GLOW_EW_ST_i64(x) ((int64_t)(x))
#define GLOW_EW_ST_u8(x) ((uint8_t)(x))
#define GLOW_EW_ST_u16(x) ((uint16_t)(x))
#define GLOW_EW_ST_u32(x) ((uint32_t)(x))
#define GLOW_EW_ST_u64(x) ((uint64_t)(x))
#define GLOW_EW_CV_f32(x) ((float)(x))
#define GLOW_EW_CV_f64(x) ((double)(x))
#define GLOW_EW_CV_i8(x) ((int8_t)(x))
#define GLOW_EW_CV_i16(x) ((int16_t)(x))
#define GLOW_EW_CV_i32(x) ((int32_t)(x))
#define GLOW_EW_CV_i64(x) ((int64_t)(x))
#define GLOW_EW_CV_u8(x) ((uint8_t)(x))
#define GLOW_EW_CV_u16(x) ((uint16_t)(x))
#define GLOW_EW_CV_u32(x) ((uint32_t)(x))
#define GLOW_EW_CV_u64(x) ((uint64_t)(x))

/* Dtype lists: M(s, ...) for each suffix. */
#define GLOW_EW_FLOATS(M, ...) M(f32, __VA_ARGS__) M(f64, __VA_ARGS__) M(f16, __VA_ARGS__) M(bf16, __VA_ARGS__)
#define GLOW_EW_SINTS(M, ...) M(i8, __VA_ARGS__) M(i16, __VA_ARGS__) M(i32, __VA_ARGS__) M(i64, __VA_ARGS__)
#define GLOW_EW_UINTS(M, ...) M(u8, __VA_ARGS__) M(u16, __VA_ARGS__) M(u32, __VA_ARGS__) M(u64, __VA_ARGS__)
#define GLOW_EW_NUMERIC(M, ...) GLOW_EW_FLOATS(M, __VA_ARGS__) GLOW_EW_SINTS(M, __VA_ARGS__) GLOW_EW_UINTS(M, __VA_ARGS__)

/* The broadcast loop over the rows (innermost dim) of a dense output of r
 * dims (r >= 1) with NI inputs; st holds NI rows of r element strides (0 on
 * broadcast axes). The body sees `i`, the row's first output element,
 * `at[k]`, input k's first element, `len`, the row length, and `inc[k]`,
 * input k's stride along the row: the lowering collapses dims first, so it
 * is 0 or 1 and, with every parameter a constant after inlining, a row loop
 * vectorizes. Rows go to `static inline` functions with restrict pointers:
 * outputs never alias inputs, so loads of broadcast inputs leave the loop. */
#define GLOW_EW_ROWS(NI, r, dims, st, ...)                                                                   \
  do {                                                                                                       \
    const int64_t r_ = (r), *dims_ = (dims), *st_ = (st);                                                    \
    int64_t len = dims_[r_ - 1], outer_ = 1, idx_[8] = {0}, at[NI] = {0}, inc[NI];                           \
    for (int k_ = 0; k_ < (NI); k_++)                                                                        \
      inc[k_] = st_[k_ * r_ + r_ - 1];                                                                       \
    for (int64_t d_ = 0; d_ < r_ - 1; d_++)                                                                  \
      outer_ *= dims_[d_];                                                                                   \
    for (int64_t j_ = 0; j_ < outer_; j_++) {                                                                \
      int64_t i = j_ * len;                                                                                  \
      __VA_ARGS__                                                                                            \
      for (int64_t d_ = r_ - 2; d_ >= 0; d_--) {                                                             \
        for (int k_ = 0; k_ < (NI); k_++)                                                                    \
          at[k_] += st_[k_ * r_ + d_];                                                                       \
        if (++idx_[d_] < dims_[d_])                                                                          \
          break;                                                                                             \
        for (int k_ = 0; k_ < (NI); k_++)                                                                    \
          at[k_] -= st_[k_ * r_ + d_] * dims_[d_];                                                           \
        idx_[d_] = 0;                                                                                        \
      }                                                                                                      \
    }                                                                                                        \
  } while (0)

/* A kernel over two inputs of dtypes sa, sb into an output of dtype so:
 * t: out, a, b; p: glow_abi_ew of a and b.
 * EXPR computes the output (compute type of so) from a and b (compute types). */
#define GLOW_EW_BINARY(name, sa, sb, so, EXPR)                                                               \
  static inline void glow_ew_row_##name(GLOW_EW_T(so) *restrict o_, const GLOW_EW_T(sa) *restrict a_,        \
                                        const GLOW_EW_T(sb) *restrict b_, int64_t len, int64_t ia,           \
                                        int64_t ib) {                                                        \
    for (int64_t e = 0; e < len; e++) {                                                                      \
      GLOW_EW_C(sa) a = GLOW_EW_LD(sa, a_[e * ia]);                                                          \
      GLOW_EW_C(sb) b = GLOW_EW_LD(sb, b_[e * ib]);                                                          \
      o_[e] = GLOW_EW_ST(so, EXPR);                                                                          \
    }                                                                                                        \
  }                                                                                                          \
  GLOW_KERNEL(name) {                                                                                        \
    GLOW_EW_T(so) *o = (GLOW_EW_T(so) *)t[0];                                                                \
    const GLOW_EW_T(sa) *a = (const GLOW_EW_T(sa) *)t[1];                                                    \
    const GLOW_EW_T(sb) *b = (const GLOW_EW_T(sb) *)t[2];                                                    \
    const glow_abi_ew *ap = (const glow_abi_ew *)p;                                                          \
    GLOW_EW_ROWS(2, ap->r, ap->dims, GLOW_ABI_EW_STRIDES(ap),                                                \
                 glow_ew_row_##name(o + i, a + at[0], b + at[1], len, inc[0], inc[1]););                     \
  }

#endif
