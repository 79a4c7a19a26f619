/* What the Cortex-M int8 kernels (kernels/qconv-mcu.h, kernels/qgemm-mcu.h)
 * share: which instructions they may use, their steps, and requantization.
 *
 * Three ways to multiply, chosen at model-compile time (target.h's probes):
 *   plain  32-bit MUL/MLA, one product at a time (Cortex-M0, and any core
 *          built without the others);
 *   DSP    SMLAD: two int16 x int16 products added to an int32 in one
 *          instruction (Cortex-M4, M7, M33, M55; glow_target_arm_dsp);
 *   MVE    Helium's VMLADAVA: 16 int8 x int8 products summed into a core
 *          register (Cortex-M55; glow_target_arm_mve).
 * A core's kernels are compiled for its baseline (targets/<t>/target.cmake):
 * the DSP and MVE code exists only where that baseline has them (the ACLE
 * macros), and the probe then says whether the CPU asked for (-mcpu, -mattr)
 * has them too; the branch not taken folds away and is never compiled.
 * Indices are 32-bit: these are 32-bit cores. */
#ifndef GLOW_KERNELS_QMCU_H
#define GLOW_KERNELS_QMCU_H

#include "kernels/nn-vec.h"
#include "kernels/quant.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
extern const int glow_target_arm_dsp;
#define QMCU_DSP glow_target_arm_dsp
#else
#define QMCU_DSP 0
#endif

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
extern const int glow_target_arm_mve;
#define QMCU_MVE glow_target_arm_mve
#else
#define QMCU_MVE 0
#endif

/* Bytes of the stack buffers (an im2col band, a plane band): half a panel each. */
#define QMCU_BUF (GLOW_STACK_PANEL_FLOATS * 2)

static inline int32_t qmcu_min(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t qmcu_max(int32_t a, int32_t b) { return a > b ? a : b; }

static inline uint32_t qmcu_load32(const void *p) {
  uint32_t v;
  __builtin_memcpy(&v, p, 4);
  return v;
}

/* The requantization of kernels/quant.h, saturate(round(acc * m) + zp), of a
 * channel's int32 sums (qmcu_rq_of once, qmcu_rq_put each sum), in fewer
 * operations: v = acc * m, then t = v + 1.5 * 2^23, whose bits as an int32
 * are round_half_even(v) + 0x4B400000 where |v| < 2^22 (as quant.h's rounding
 * has it) and further out still order as v does (negative floats negative):
 * clamped as integers, they give quant.h's bytes. Not for a multiplier that
 * is infinite or NaN (v NaN): quant.h's own code then. */
typedef struct {
  float m;
  int32_t zp, sgn, base, ok;
} qmcu_rq;

static inline qmcu_rq qmcu_rq_of(float m, int32_t zp, int sgn) {
  qmcu_rq r;
  r.m = m;
  r.zp = zp;
  r.sgn = sgn;
  r.base = 0x4B400000 + (sgn ? -128 : 0) - zp; /* the bits of t for the smallest result */
  uint32_t bits;
  __builtin_memcpy(&bits, &m, 4);
  r.ok = (bits >> 23 & 0xFF) != 0xFF; /* finite (in integers: soft float calls nothing) */
  return r;
}

static inline uint8_t qmcu_rq_put(const qmcu_rq *r, int32_t acc) {
  float v = (float)acc * r->m;
  if (!r->ok)
    return glow_q_saturate(v, r->zp, r->sgn);
  float t = v + 12582912.0f; /* a statement of its own: not contracted into an FMA with the product */
  int32_t i, d;
  __builtin_memcpy(&i, &t, 4);
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  if (QMCU_DSP)
    d = (int32_t)__usat(__qsub(i, r->base), 8);
  else
#endif
  {
    i = i < r->base ? r->base : i;
    d = i > r->base + 255 ? 255 : i - r->base;
  }
  return (uint8_t)(d - (r->sgn ? 128 : 0));
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* Bytes 0 and 2, 1 and 3 of a word, sign- (sg) or zero-extended, as int16 pairs. */
static inline int32_t qmcu_even16(uint32_t w, int sg) { return sg ? __sxtb16((int32_t)w) : (int32_t)__uxtb16(w); }
static inline int32_t qmcu_odd16(uint32_t w, int sg) { return qmcu_even16(w >> 8 | w << 24, sg); }
#endif

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
/* The requantization above, lane by lane (the same float operations, so the
 * same bytes), of 4 sums into 4 bytes at dst (the first n). */
static inline void qmcu_requant4(uint8_t *dst, int32x4_t acc, float32x4_t m, int32_t zp, int sgn, int32_t n) {
  float lo = (float)((sgn ? -128 : 0) - zp), hi = (float)((sgn ? 127 : 255) - zp);
  float32x4_t v = vmulq_f32(vcvtq_f32_s32(acc), m);
  v = vminnmq_f32(vmaxnmq_f32(v, vdupq_n_f32(lo)), vdupq_n_f32(hi));
  v = vsubq_n_f32(vaddq_n_f32(v, 12582912.0f), 12582912.0f);
  int32x4_t q = vaddq_n_s32(vcvtq_s32_f32(v), zp);
  vstrbq_p_s32((int8_t *)dst, q, vctp32q((uint32_t)n));
}
#endif

/* Up to 4 sums of one channel into bytes at dst (n of them): 4 lanes at once with MVE. */
static inline void qmcu_rq_put4(uint8_t *dst, const qmcu_rq *r, const int32_t *s, int32_t n) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  if (QMCU_MVE) {
    qmcu_requant4(dst, vld1q_s32(s), vdupq_n_f32(r->m), r->zp, r->sgn, n);
    return;
  }
#endif
  for (int32_t i = 0; i < n; i++)
    dst[i] = qmcu_rq_put(r, s[i]);
}

#endif
