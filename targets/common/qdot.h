/* The int8 dot-product steps of the quantized kernels (qdot-portable.h says
 * what they compute). This is the portable version, for targets without their
 * own qdot.h (targets/<t>/ comes first on the include path). */
#ifndef GLOW_QDOT_H
#define GLOW_QDOT_H

#include "qdot-portable.h"

static inline void glow_qdot(glow_qi16 *acc, const glow_q64 *x, int32_t w4) { glow_qdot_portable(acc, x, w4); }
static inline void glow_qdot_s(glow_qi16 *acc, const glow_q64 *w, uint32_t x4) { glow_qdot_portable_s(acc, w, x4); }

static inline void glow_qdot2(glow_qi16 *acc, const glow_qh32 *x, int32_t w2) { glow_qdot2_portable(acc, x, w2); }

/* Whether the int8 convolutions take int16 pairs (glow_qdot2) rather than
 * 4-byte dot products (glow_qdot): 0, the portable dot product is no slower. */
static inline int glow_qdot_pairs(void) { return 0; }

/* The unsigned operand is unsigned (glow_qdot_x_signed: 0); a target whose
 * dot product multiplies signed bytes by signed bytes returns 1, and kernels
 * then give it x - 128 (and its zero point - 128). */
static inline int glow_qdot_x_signed(void) { return 0; }

/* Register tile: 1 for targets with 32 vector registers of 64 bytes, 0 otherwise. */
static inline int glow_qdot_wide(void) { return 0; }

/* Whether the int8 kernels take the Cortex-M paths (kernels/qconv-mcu.h,
 * kernels/qgemm-mcu.h: plain, DSP and MVE steps; kernels/qmcu.h says which runs
 * where): 1 where the target's flags say -DGLOW_QDOT_MCU=1 (armv6m, armv7em,
 * armv8m, armv81m), whose 16 core registers (8 of 16 bytes with MVE) hold none
 * of the 64-byte tiles above; they still run the portable steps elsewhere. */
#ifndef GLOW_QDOT_MCU
#define GLOW_QDOT_MCU 0
#endif
static inline int glow_qdot_mcu(void) { return GLOW_QDOT_MCU; }

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
