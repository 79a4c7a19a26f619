/* AArch64: the int8 dot-product steps (qdot-portable.h says what they compute)
 * with sdot where the CPU has the dot-product instructions (Armv8.2 dotprod:
 * Cortex-A55, A76, Neoverse N1 and later; -mcpu or -mattr=+dotprod), else the
 * portable ones. sdot multiplies signed bytes by signed bytes, so the
 * kernels then hand it x - 128 (glow_qdot_x_signed). As on x86, the choice is
 * made at model-compile time from the target's probe (aarch64/target.c). */
#ifndef GLOW_QDOT_H
#define GLOW_QDOT_H

#include <arm_neon.h>

#include "qdot-portable.h"

extern const int glow_target_a64_dotprod;

typedef int8_t glow_s8x16_ __attribute__((vector_size(16)));
typedef int32_t glow_s32x4_ __attribute__((vector_size(16)));

/* acc[i] += sum of 4 signed bytes of x times 4 signed bytes of w, lane by lane. */
__attribute__((target("dotprod"))) static inline void glow_qdot_sdot(glow_qi16 *acc, const glow_q64 *x,
                                                                    const glow_q64 *w) {
  const glow_s8x16_ *xv = (const glow_s8x16_ *)x, *wv = (const glow_s8x16_ *)w;
  glow_s32x4_ *av = (glow_s32x4_ *)acc;
  for (int q = 0; q < 4; q++)
    av[q] = (glow_s32x4_)vdotq_s32((int32x4_t)av[q], (int8x16_t)xv[q], (int8x16_t)wv[q]);
}

static inline void glow_qdot(glow_qi16 *acc, const glow_q64 *x, int32_t w4) {
  if (glow_target_a64_dotprod) {
    glow_qi16 w = (glow_qi16){0} + w4;
    glow_qdot_sdot(acc, x, (const glow_q64 *)&w);
  } else {
    glow_qdot_portable(acc, x, w4);
  }
}

static inline void glow_qdot_s(glow_qi16 *acc, const glow_q64 *w, uint32_t x4) {
  if (glow_target_a64_dotprod) {
    glow_qi16 x = (glow_qi16){0} + (int32_t)x4;
    glow_qdot_sdot(acc, (const glow_q64 *)&x, w);
  } else {
    glow_qdot_portable_s(acc, w, x4);
  }
}

static inline void glow_qdot2(glow_qi16 *acc, const glow_qh32 *x, int32_t w2) { glow_qdot2_portable(acc, x, w2); }

/* The int8 convolutions take 4-byte dot products (sdot, or the portable ones). */
static inline int glow_qdot_pairs(void) { return 0; }

static inline int glow_qdot_x_signed(void) { return glow_target_a64_dotprod; }

/* 32 registers of 16 bytes: the narrow register tile. */
static inline int glow_qdot_wide(void) { return 0; }

/* Whether the int8 kernels take the Cortex-M paths (kernels/qconv-mcu.h,
 * kernels/qgemm-mcu.h): 0, this target has vectors for the ones above. */
static inline int glow_qdot_mcu(void) { return 0; }

/* 64 bytes of IntLookupTable at once where the target has a byte permutation of a
 * whole vector (x86_64/qdot.h); 0 here: the caller looks each byte up. */
static inline int glow_q_lookup64(uint8_t *y, const uint8_t *x, const uint8_t *tab) {
  (void)y, (void)x, (void)tab;
  return 0;
}

/* Two rows of 32 requantized bytes at once (x86_64/qdot.h); 0 here: the caller
 * requantizes each 16 (glow_q_saturate16). */
static inline int glow_q_requant64(uint8_t *d0, uint8_t *d1, const glow_qi16 *a, const glow_qf16 *m0,
                                   const glow_qf16 *m1, int32_t zp, int sgn) {
  (void)d0, (void)d1, (void)a, (void)m0, (void)m1, (void)zp, (void)sgn;
  return 0;
}

#endif
