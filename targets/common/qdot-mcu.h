/* The int8 dot-product steps for Cortex-M (targets/armv6m, armv7em, armv8m,
 * armv81m: their qdot.h is this file): the portable steps for what still uses
 * them, and glow_qdot_mcu(), which sends QLinearConv and QLinearMatMul to the
 * kernels written for these cores (kernels/qconv-mcu.h, kernels/qgemm-mcu.h:
 * plain, DSP and MVE steps; kernels/qmcu.h says which runs where). The steps
 * above work on 64-byte vectors, which these cores have not: 16 core
 * registers (and 8 of 16 bytes with MVE) hold none of their tiles. */
#ifndef GLOW_QDOT_H
#define GLOW_QDOT_H

#include "qdot-portable.h"

static inline void glow_qdot(glow_qi16 *acc, const glow_q64 *x, int32_t w4) { glow_qdot_portable(acc, x, w4); }
static inline void glow_qdot_s(glow_qi16 *acc, const glow_q64 *w, uint32_t x4) { glow_qdot_portable_s(acc, w, x4); }
static inline void glow_qdot2(glow_qi16 *acc, const glow_qh32 *x, int32_t w2) { glow_qdot2_portable(acc, x, w2); }
static inline int glow_qdot_pairs(void) { return 0; }
static inline int glow_qdot_x_signed(void) { return 0; }
static inline int glow_qdot_wide(void) { return 0; }

static inline int glow_qdot_mcu(void) { return 1; }

#endif
