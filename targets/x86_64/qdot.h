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

extern const int glow_target_x86_vnni512, glow_target_x86_vnni256, glow_target_x86_zmm, glow_target_x86_madd256,
    glow_target_x86_madd512, glow_target_x86_vbmi;

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

/* vpmaddwd (glow_qdot2 below): its int16 x int16 pair products, in 512-bit
 * registers (AVX512BW), 256-bit ones (AVX2) or 128-bit ones (SSE2, every
 * x86-64); the probes (x86_64/target.c) only answer where VNNI is absent,
 * which is where glow_qdot_pairs() takes them. Written with the instruction's builtin: LLVM does not find it in
 * the portable version's products with a broadcast w. */
typedef short glow_v8hi_ __attribute__((vector_size(16)));
typedef short glow_v16hi_ __attribute__((vector_size(32)));
typedef short glow_v32hi_ __attribute__((vector_size(64)));
typedef int glow_v4si_ __attribute__((vector_size(16)));

__attribute__((target("avx512bw,evex512"), min_vector_width(512))) static inline void
glow_qdot2_512(glow_qi16 *acc, const glow_qh32 *x, int32_t w2) {
  glow_v16si_ w = (glow_v16si_){0} + w2;
  *acc += (glow_qi16)__builtin_ia32_pmaddwd512((glow_v32hi_)*x, (glow_v32hi_)w);
}

__attribute__((target("avx2"))) static inline void glow_qdot2_256(glow_qi16 *acc, const glow_qh32 *x, int32_t w2) {
  glow_v8si_ w = (glow_v8si_){0} + w2;
  glow_v32hi_ v = (glow_v32hi_)*x;
  glow_v8si_ lo = __builtin_ia32_pmaddwd256(
      __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), (glow_v16hi_)w);
  glow_v8si_ hi = __builtin_ia32_pmaddwd256(
      __builtin_shufflevector(v, v, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31), (glow_v16hi_)w);
  *acc += (glow_qi16)__builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* x is 4-byte aligned: loaded as a whole (a glow_v8hi_ pointer would claim 16,
 * and SSE's movdqa and pmaddwd with a memory operand fault without it). */
static inline void glow_qdot2_128(glow_qi16 *acc, const glow_qh32 *x, int32_t w2) {
  glow_v4si_ w = (glow_v4si_){0} + w2, r[4];
  glow_v32hi_ v = (glow_v32hi_)*x;
  glow_v8hi_ h[4] = {__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7),
                     __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15),
                     __builtin_shufflevector(v, v, 16, 17, 18, 19, 20, 21, 22, 23),
                     __builtin_shufflevector(v, v, 24, 25, 26, 27, 28, 29, 30, 31)};
  for (int q = 0; q < 4; q++)
    r[q] = __builtin_ia32_pmaddwd128(h[q], (glow_v8hi_)w);
  *acc += (glow_qi16)__builtin_shufflevector(__builtin_shufflevector(r[0], r[1], 0, 1, 2, 3, 4, 5, 6, 7),
                                             __builtin_shufflevector(r[2], r[3], 0, 1, 2, 3, 4, 5, 6, 7), 0, 1, 2, 3,
                                             4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

static inline void glow_qdot2(glow_qi16 *acc, const glow_qh32 *x, int32_t w2) {
  if (glow_target_x86_zmm && glow_target_x86_madd512)
    glow_qdot2_512(acc, x, w2);
  else if (glow_target_x86_madd256)
    glow_qdot2_256(acc, x, w2);
  else
    glow_qdot2_128(acc, x, w2);
}

/* Without VNNI, a 4-byte dot product is 4 widenings and 4 multiplies
 * (glow_qdot_portable); int16 pairs take one vpmaddwd per 2 channels. */
static inline int glow_qdot_pairs(void) { return !glow_target_x86_vnni512 && !glow_target_x86_vnni256; }

static inline int glow_qdot_x_signed(void) { return 0; } /* vpdpbusd: unsigned times signed */

typedef char glow_v64qi_ __attribute__((vector_size(64)));

/* y[0..64) = tab[x[0..64)] (a 256-byte table): two vpermi2b (AVX512-VBMI) over
 * its halves, the index's top bit picking between them. */
__attribute__((target("avx512vbmi,avx512bw,evex512"), min_vector_width(512))) static inline void
glow_q_lookup64_vbmi(uint8_t *y, const uint8_t *x, const uint8_t *tab) {
  typedef char v64 __attribute__((vector_size(64), aligned(1)));
  v64 i = *(const v64 *)x, t0 = *(const v64 *)tab, t1 = *(const v64 *)(tab + 64), t2 = *(const v64 *)(tab + 128),
      t3 = *(const v64 *)(tab + 192);
  v64 lo = (v64)__builtin_ia32_vpermi2varqi512((glow_v64qi_)t0, (glow_v64qi_)i, (glow_v64qi_)t1);
  v64 hi = (v64)__builtin_ia32_vpermi2varqi512((glow_v64qi_)t2, (glow_v64qi_)i, (glow_v64qi_)t3);
  *(v64 *)y = (v64)__builtin_ia32_selectb_512(__builtin_ia32_cvtb2mask512((glow_v64qi_)i), (glow_v64qi_)hi,
                                              (glow_v64qi_)lo);
}

/* 64 bytes of IntLookupTable where the CPU has a whole-register byte permutation;
 * 0: the caller looks each byte up. */
static inline int glow_q_lookup64(uint8_t *y, const uint8_t *x, const uint8_t *tab) {
  if (!glow_target_x86_vbmi)
    return 0;
  glow_q_lookup64_vbmi(y, x, tab);
  return 1;
}

typedef short glow_v32hi_ __attribute__((vector_size(64)));

/* glow_q_saturate16 (kernels/quant.h) over two rows of 32 sums: a[0], a[1] times *m0
 * into d0[0..32), a[2], a[3] times *m1 into d1[0..32). cvtps2dq rounds half to even as
 * the float trick there does; the packs saturate to int16 and then to the byte's range,
 * and the zero point is added in between with int16 saturation, so every byte is
 * saturate(round(v) + zp) = saturate(round(clamp(v)) + zp) (the bounds are integers).
 * min() keeps v under 2^30, where cvtps2dq would wrap to INT_MIN. */
__attribute__((target("avx512bw,evex512"), min_vector_width(512))) static inline void
glow_q_requant64_bw(uint8_t *d0, uint8_t *d1, const glow_qi16 *a, const glow_qf16 *m0, const glow_qf16 *m1,
                    int32_t zp, int sgn) {
  typedef char v32 __attribute__((vector_size(32), aligned(1)));
  glow_v16si_ q[4];
  for (int i = 0; i < 4; i++) {
    glow_qf16 v = __builtin_convertvector(a[i], glow_qf16) * (i < 2 ? *m0 : *m1);
    v = __builtin_elementwise_min(v, (glow_qf16){0} + 1073741824.0f);
    q[i] = __builtin_ia32_cvtps2dq512_mask(v, (glow_v16si_){0}, (unsigned short)0xffff, 4 /* current direction */);
  }
  glow_v32hi_ z = (glow_v32hi_){0} + (short)zp;
  glow_v32hi_ h0 = __builtin_elementwise_add_sat((glow_v32hi_)__builtin_ia32_packssdw512(q[0], q[1]), z);
  glow_v32hi_ h1 = __builtin_elementwise_add_sat((glow_v32hi_)__builtin_ia32_packssdw512(q[2], q[3]), z);
  glow_v16si_ b = (glow_v16si_)(sgn ? __builtin_ia32_packsswb512(h0, h1) : __builtin_ia32_packuswb512(h0, h1));
  /* Each 128-bit lane i holds 4 bytes of each source's lane i: gather them in order. */
  b = __builtin_shufflevector(b, b, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  *(v32 *)d0 = (v32)__builtin_shufflevector(b, b, 0, 1, 2, 3, 4, 5, 6, 7);
  *(v32 *)d1 = (v32)__builtin_shufflevector(b, b, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* Two rows of 32 requantized bytes at once where the CPU has AVX512BW's packs; 0: the
 * caller requantizes each 16 (glow_q_saturate16). */
static inline int glow_q_requant64(uint8_t *d0, uint8_t *d1, const glow_qi16 *a, const glow_qf16 *m0,
                                   const glow_qf16 *m1, int32_t zp, int sgn) {
  if (!glow_target_x86_zmm || !(glow_target_x86_vnni512 || glow_target_x86_madd512)) /* AVX512BW either way */
    return 0;
  glow_q_requant64_bw(d0, d1, a, m0, m1, zp, sgn);
  return 1;
}

/* 32 registers of 64 bytes (AVX-512) take the larger register tile. */
static inline int glow_qdot_wide(void) { return glow_target_x86_zmm; }

/* Whether the int8 kernels take the Cortex-M paths (kernels/qconv-mcu.h,
 * kernels/qgemm-mcu.h): 0, this target has vectors for the ones above. */
static inline int glow_qdot_mcu(void) { return 0; }

#endif
