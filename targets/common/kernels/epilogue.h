/* The fused epilogue of the float32 conv and matmul kernels
 * (compiler/passes/fuse-epilogue.c): y = act(acc + residual), applied to each
 * output as it is stored, instead of further passes over the output in memory.
 * Parameters: glow_abi_epi (kernel-abi.h), the kinds GLOW_EPI_*; the residual
 * is a tensor of Y's shape, or NULL.
 * Each activation is computed exactly as its own kernel computes it
 * (unary-math.c, unary-clip.c), so fusing changes no output bit. */
#ifndef GLOW_EPILOGUE_H
#define GLOW_EPILOGUE_H

#include "kernel.h"
#include "kmath.h"
#include "kernels/nn-vec.h"

typedef struct {
  int64_t kind;
  float a, b;
} glow_epi;

static inline glow_epi glow_epi_get(const glow_abi_epi *p) {
  glow_epi e = {p->kind, (float)glow_pf(p->a), (float)glow_pf(p->b)};
  return e;
}

static inline float glow_epi_apply(glow_epi e, float x) {
  switch (e.kind) {
  case GLOW_EPI_RELU:
    return x < 0 ? 0 : x;
  case GLOW_EPI_CLIP:
    x = x < e.a ? e.a : x;
    return x > e.b ? e.b : x;
  case GLOW_EPI_SIGMOID:
    return glow_sigmoidf(x);
  case GLOW_EPI_SWISH:
    return x * glow_sigmoidf(x);
  case GLOW_EPI_HARDSWISH:
    return x + 3 < 0 ? 0 : x + 3 > 6 ? x : x * (x + 3) / 6;
  case GLOW_EPI_LEAKY_RELU:
    return x < 0 ? e.a * x : x;
  case GLOW_EPI_HARDSIGMOID:
    return e.a * x + e.b < 0 ? 0 : e.a * x + e.b > 1 ? 1 : e.a * x + e.b;
  default:
    return x;
  }
}

/* n outputs in a row, in place; r: their residuals (NULL: none). A plain loop
 * over memory just written (still in cache), which LLVM vectorizes whole. */
static inline void glow_epi_row(glow_epi e, float *y, const float *r, int64_t n) {
  if (r)
    for (int64_t i = 0; i < n; i++)
      y[i] += r[i];
  if (e.kind != GLOW_EPI_NONE)
    for (int64_t i = 0; i < n; i++)
      y[i] = glow_epi_apply(e, y[i]);
}

typedef int32_t glow_epi_i16 __attribute__((vector_size(64), aligned(4)));

/* m ? b : a, lane by lane (m: all ones or zero). */
#define GLOW_EPI_SELECT(m, b, a) ((glow_nn_v16)(((glow_epi_i16)(b) & (m)) | ((glow_epi_i16)(a) & ~(m))))

/* The kinds glow_epi_v16() takes as a few vector operations. */
static inline int glow_epi_in_regs(glow_epi e) {
  return e.kind == GLOW_EPI_NONE || e.kind == GLOW_EPI_RELU || e.kind == GLOW_EPI_CLIP;
}

/* The epilogue on 16 outputs in place, as glow_epi_apply() on each (NaN kept as
 * it keeps it): the common kinds as vector operations. */
static inline __attribute__((always_inline)) void glow_epi_v16(glow_epi e, glow_nn_v16 *v) {
  const glow_nn_v16 zero = {0};
  switch (e.kind) {
  case GLOW_EPI_NONE:
    return;
  case GLOW_EPI_RELU:
    *v = GLOW_EPI_SELECT(*v < zero, zero, *v);
    return;
  case GLOW_EPI_CLIP:
    *v = GLOW_EPI_SELECT(*v < zero + e.a, zero + e.a, *v);
    *v = GLOW_EPI_SELECT(*v > zero + e.b, zero + e.b, *v);
    return;
  default:
    for (int j = 0; j < 16; j++)
      (*v)[j] = glow_epi_apply(e, (*v)[j]);
  }
}

/* glow_nn_strip_move() to Y (n <= 16 pixels of mb channels), with the residual
 * (res: at y's place in its tensor; NULL: none) and the epilogue e on each
 * output: in registers for 16 pixels of a kind glow_epi_in_regs() takes, else
 * over Y's rows after the move. The same operations on each output either way. */
static inline __attribute__((always_inline)) void glow_epi_strip_out(float *st, int64_t cw, float *y, int64_t osz,
                                                                     int64_t n, int64_t mb, glow_epi e,
                                                                     const float *res) {
  if (n < 16 || !glow_epi_in_regs(e)) {
    glow_nn_strip_move(st, cw, y, osz, n, mb, 1);
    if (res || e.kind != GLOW_EPI_NONE)
#pragma clang loop unroll(disable)
      for (int64_t i = 0; i < mb && i < 16; i++)
        glow_epi_row(e, y + i * osz, res ? res + i * osz : 0, n);
    return;
  }
  glow_nn_v16 r[16];
  for (int i = 0; i < 16; i++)
    r[i] = *(const glow_nn_v16 *)(st + i * cw);
  glow_nn_transpose16(r);
  for (int i = 0; i < 16 && i < mb; i++) {
    glow_nn_v16 v = r[i];
    if (res)
      v += *(const glow_nn_v16 *)(res + i * osz);
    glow_epi_v16(e, &v);
    *(glow_nn_v16 *)(y + i * osz) = v;
  }
}

#endif
