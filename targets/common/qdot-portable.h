/* The step of the int8 convolution and matrix kernels (kernels/qconv.c,
 * kernels/qgemm.c), in portable C: 16 int32 lanes, each adding the dot
 * product of 4 unsigned bytes with 4 signed bytes, one side a 64-byte vector
 * (4 bytes per lane), the other 4 bytes packed in an int32 and the same for
 * every lane:
 *   glow_qdot_portable:   acc[i] += x[4i] w0 + x[4i+1] w1 + x[4i+2] w2 + x[4i+3] w3
 *                         (x unsigned vector, w signed, broadcast)
 *   glow_qdot_portable_s: the same with a signed vector and unsigned broadcast
 * (x86's vpdpbusd computes both). A target's qdot.h may replace them
 * (targets/x86_64/qdot.h); targets/common/qdot.h uses these.
 *
 * Written as four widened products per lane: LLVM turns them into vpmaddwd
 * (or vpdpwssd) on x86, smull/smlal-like sequences elsewhere. Vectors are
 * passed by pointer: targets without 64-byte registers then pass no vectors. */
#ifndef GLOW_QDOT_PORTABLE_H
#define GLOW_QDOT_PORTABLE_H

#include <stdint.h>

typedef uint8_t glow_q64 __attribute__((vector_size(64), aligned(1)));  /* 16 lanes x 4 bytes */
typedef int32_t glow_qi16 __attribute__((vector_size(64), aligned(4))); /* 16 int32 lanes */
typedef float glow_qf16 __attribute__((vector_size(64), aligned(4)));   /* 16 float lanes */

typedef uint8_t glow_qu16_ __attribute__((vector_size(16)));
typedef int8_t glow_qs16_ __attribute__((vector_size(16)));

/* Byte j of each lane of x, widened (zero- or sign-extended) to int32. */
#define GLOW_QDOT_BYTE(T, x, j)                                                                                        \
  __builtin_convertvector((T)__builtin_shufflevector(*(x), *(x), j, j + 4, j + 8, j + 12, j + 16, j + 20, j + 24,      \
                                                     j + 28, j + 32, j + 36, j + 40, j + 44, j + 48, j + 52, j + 56,   \
                                                     j + 60),                                                          \
                          glow_qi16)

static inline void glow_qdot_portable(glow_qi16 *acc, const glow_q64 *x, int32_t w4) {
  *acc += GLOW_QDOT_BYTE(glow_qu16_, x, 0) * (int8_t)w4 + GLOW_QDOT_BYTE(glow_qu16_, x, 1) * (int8_t)(w4 >> 8) +
          GLOW_QDOT_BYTE(glow_qu16_, x, 2) * (int8_t)(w4 >> 16) + GLOW_QDOT_BYTE(glow_qu16_, x, 3) * (int8_t)(w4 >> 24);
}

static inline void glow_qdot_portable_s(glow_qi16 *acc, const glow_q64 *w, uint32_t x4) {
  *acc += GLOW_QDOT_BYTE(glow_qs16_, w, 0) * (int32_t)(uint8_t)x4 +
          GLOW_QDOT_BYTE(glow_qs16_, w, 1) * (int32_t)(uint8_t)(x4 >> 8) +
          GLOW_QDOT_BYTE(glow_qs16_, w, 2) * (int32_t)(uint8_t)(x4 >> 16) +
          GLOW_QDOT_BYTE(glow_qs16_, w, 3) * (int32_t)(uint8_t)(x4 >> 24);
}

/* The int16-pair step (kernels/qconv.c's pairs path): 16 int32 lanes, each
 * adding x[2i] w0 + x[2i+1] w1, x a vector of 32 int16 and (w0, w1) two int16
 * in one int32, w0 in its low half, the same for every lane (x86's vpmaddwd
 * computes it). A target's qdot.h names it glow_qdot2 (or its own). */
typedef int16_t glow_qh32 __attribute__((vector_size(64), aligned(4))); /* 16 lanes x 2 int16 */
typedef int16_t glow_qh16_ __attribute__((vector_size(32)));

static inline void glow_qdot2_portable(glow_qi16 *acc, const glow_qh32 *x, int32_t w2) {
  glow_qh16_ e = __builtin_shufflevector(*x, *x, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  glow_qh16_ o = __builtin_shufflevector(*x, *x, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  *acc += __builtin_convertvector(e, glow_qi16) * (int32_t)(int16_t)w2 +
          __builtin_convertvector(o, glow_qi16) * (int32_t)(int16_t)(w2 >> 16);
}

#endif
