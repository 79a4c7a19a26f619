/* x86-64: the int8 dot-product steps (qdot-portable.h says what they compute)
 * with vpdpbusd where the CPU has VNNI, else the portable ones. Kernels are
 * compiled once, for the baseline CPU, so the choice is made at model-compile
 * time: glow_target_x86_* are the target's probes (x86_64/target.c), constants
 * by then, and the VNNI functions (compiled here with their own target
 * attribute, then given the model's CPU like every kernel) are only inlined
 * where the CPU has the instruction. */
#ifndef GLOW_QDOT_H
#define GLOW_QDOT_H

#include "qdot-portable.h"

extern const int glow_target_x86_vnni512, glow_target_x86_vnni256, glow_target_x86_zmm;

typedef int glow_v16si_ __attribute__((vector_size(64)));
typedef int glow_v8si_ __attribute__((vector_size(32)));

/* vpdpbusd zmm: u (unsigned bytes) times s (signed bytes), 4 per lane. */
__attribute__((target("avx512vnni,evex512"), min_vector_width(512))) static inline void glow_qdot_vnni512(glow_qi16 *acc, const glow_q64 *u,
                                                                                  const glow_q64 *s) {
  *acc = (glow_qi16)__builtin_ia32_vpdpbusd512((glow_v16si_)*acc, (glow_v16si_)*u, (glow_v16si_)*s);
}

/* The same as two vpdpbusd ymm (AVX-VNNI, or AVX512-VNNI with AVX512VL). */
__attribute__((target("avxvnni"))) static inline void glow_qdot_vnni256(glow_qi16 *acc, const glow_q64 *u,
                                                                       const glow_q64 *s) {
  glow_v16si_ a = (glow_v16si_)*acc, x = (glow_v16si_)*u, y = (glow_v16si_)*s;
  glow_v8si_ lo = __builtin_ia32_vpdpbusd256(__builtin_shufflevector(a, a, 0, 1, 2, 3, 4, 5, 6, 7),
                                             __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7),
                                             __builtin_shufflevector(y, y, 0, 1, 2, 3, 4, 5, 6, 7));
  glow_v8si_ hi = __builtin_ia32_vpdpbusd256(__builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15),
                                             __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15),
                                             __builtin_shufflevector(y, y, 8, 9, 10, 11, 12, 13, 14, 15));
  *acc = (glow_qi16)__builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

static inline void glow_qdot_vnni(glow_qi16 *acc, const glow_q64 *u, const glow_q64 *s) {
  if (glow_target_x86_vnni512)
    glow_qdot_vnni512(acc, u, s);
  else
    glow_qdot_vnni256(acc, u, s);
}

static inline void glow_qdot(glow_qi16 *acc, const glow_q64 *x, int32_t w4) {
  if (glow_target_x86_vnni512 || glow_target_x86_vnni256) {
    glow_qi16 w = {w4, w4, w4, w4, w4, w4, w4, w4, w4, w4, w4, w4, w4, w4, w4, w4};
    glow_qdot_vnni(acc, x, (const glow_q64 *)&w);
  } else {
    glow_qdot_portable(acc, x, w4);
  }
}

static inline void glow_qdot_s(glow_qi16 *acc, const glow_q64 *w, uint32_t x4) {
  if (glow_target_x86_vnni512 || glow_target_x86_vnni256) {
    glow_qi16 x = (glow_qi16){0} + (int32_t)x4;
    glow_qdot_vnni(acc, (const glow_q64 *)&x, w);
  } else {
    glow_qdot_portable_s(acc, w, x4);
  }
}

static inline int glow_qdot_x_signed(void) { return 0; } /* vpdpbusd: unsigned times signed */

/* 32 registers of 64 bytes (AVX-512) take the larger register tile. */
static inline int glow_qdot_wide(void) { return glow_target_x86_zmm; }

#endif
