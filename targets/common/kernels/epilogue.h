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

#endif
