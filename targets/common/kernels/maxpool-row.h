/* One output row of a float32 2-D MaxPool from its window's input rows, which
 * kernels/pool.c (rows of a plane) and kernels/conv-pool.c (rows of a ring of
 * conv outputs) pass as pointers: 16 outputs in a register over their windows'
 * taps in order where the windows (and a stride-2 load of 32 floats) lie inside
 * the row; the row's other outputs (a pad's worth at each end, or all of a row
 * of fewer than 16 such outputs) one by one. Each max starts from -inf (or,
 * for a later batch of the window's rows, from what yr holds) and takes the
 * taps row by row, then column by column, as v > m ? v : m (maxps): a NaN is
 * passed over and of equal maxima the first wins, as in the loop over taps. */
#ifndef GLOW_MAXPOOL_ROW_H
#define GLOW_MAXPOOL_ROW_H

#include "kernel.h"
#include "kernels/nn-vec.h"

typedef int32_t glow_pool_v16i __attribute__((vector_size(64)));

/* v > m ? v : m, lane by lane (maxps: a NaN in v is passed over, of equal values m stays);
 * a macro: vectors passed by value change the ABI where the target lacks them (-Wpsabi). */
#define GLOW_POOL_MAX16(v, m) ((glow_nn_v16)(((glow_pool_v16i)(v) & ((v) > (m))) | ((glow_pool_v16i)(m) & ~((v) > (m)))))

/* The horizontal geometry: input row width, output row width, taps, stride,
 * dilation, left padding; [v0, v1): the outputs whose windows lie inside the
 * row, stride-2 loads included (maxpool_row_geom). */
typedef struct {
  int64_t IW, OW, KW, sw, dw, pw, v0, v1;
} maxpool_row_geom;

static inline maxpool_row_geom maxpool_row_geom_of(int64_t IW, int64_t OW, int64_t KW, int64_t sw, int64_t dw,
                                                   int64_t pw) {
  maxpool_row_geom g = {IW, OW, KW, sw, dw, pw, 0, 0};
  int64_t last = IW - sw - ((KW - 1) * dw - pw); /* ow * sw + reach + sw - 1 < IW */
  g.v0 = (pw + sw - 1) / sw;
  g.v1 = last < 0 ? 0 : last / sw + 1;
  g.v1 = g.v1 < OW ? g.v1 : OW;
  if ((sw != 1 && sw != 2) || g.v1 - g.v0 < 16) /* no vectors: every output one by one */
    g.v0 = g.v1 = 0;
  return g;
}

/* yr[0, OW) over rows[0, nrows); first: start from -inf, else from yr. */
static inline void maxpool_row_f32(float *yr, const float *const *rows, int64_t nrows, int first,
                                   const maxpool_row_geom *g) {
  int64_t sw = g->sw, dw = g->dw, v0 = g->v0, v1 = g->v1;
  for (int64_t ow = 0; ow < g->OW;) {
    if (ow >= v0 && ow < v1) { /* the last vector may overlap the one before */
      ow = ow + 16 <= v1 ? ow : v1 - 16;
      glow_nn_v16 acc = first ? (glow_nn_v16){0} - __builtin_inff() : *(const glow_nn_v16 *)(yr + ow);
      for (int64_t i = 0; i < nrows; i++)
        for (int64_t kw = 0; kw < g->KW; kw++) {
          const float *xr = rows[i] + ow * sw - g->pw + kw * dw;
          glow_nn_v16 v = GLOW_NN_LOAD16_S(xr, sw);
          acc = GLOW_POOL_MAX16(v, acc);
        }
      *(glow_nn_v16 *)(yr + ow) = acc;
      ow += 16;
      continue;
    }
    int64_t kw0, kw1;
    glow_nn_range(ow * sw - g->pw, dw, g->IW, g->KW, &kw0, &kw1);
    float acc = first ? -__builtin_inff() : yr[ow];
    for (int64_t i = 0; i < nrows; i++)
      for (int64_t kw = kw0; kw < kw1; kw++) {
        float v = rows[i][ow * sw - g->pw + kw * dw];
        acc = v > acc ? v : acc;
      }
    yr[ow++] = acc;
  }
}

#endif
