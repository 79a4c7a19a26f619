/* ConvMaxPool: a float32 2-D Conv with packed weights (conv_packed_f32, conv.c)
 * and the MaxPool after it in one step. The conv's output rows are made one at
 * a time into a stack ring of rows (all output channels of one row each: M x OW
 * floats), as many as one pool row's window spans, and each pool output row is
 * taken from the ring as soon as its rows are there (kernels/maxpool-row.h).
 * The conv's output never goes to memory: a stem conv's (squeezenet1_1's 64 x 111
 * x 111, 3.2 MB) was written, then read back by the pool (Zen 5, one thread:
 * squeezenet1_1 3.5% faster, its conv and pool 0.62 -> 0.45 ms in one run).
 * Each conv output is the same sum as conv_packed_f32's (a row at a time is its
 * output window moved down; the sums of each output do not depend on which tile
 * it falls in), the epilogue included, and each max the same as the MaxPool
 * kernel's. The compiler (passes/fuse-conv-pool.c) checks glow_conv_pool_fits
 * (kernel-abi.h) and that the conv has no residual input.
 * t: Y (the pool's output), X, W (packed), B (may be NULL); p: glow_abi_conv_pool. */
#include "kernel.h"
#include "kernels/maxpool-row.h"

void glow_k_conv_packed_f32_part(uint8_t *const *t, const int64_t *p, int64_t part, int64_t nparts);

/* Part `part` of `nparts`: a range of each image's pool output rows (the conv rows two
 * parts' windows share are made by both). */
GLOW_KERNEL_PART(conv_maxpool_f32) {
  float *y = (float *)t[0];
  const glow_abi_conv_pool *cp = (const glow_abi_conv_pool *)p;
  const glow_abi_win *pw = &cp->pool;
  int64_t N = cp->conv.N, M = cp->conv.G * cp->conv.Mg, C = cp->conv.G * cp->conv.Cg;
  int64_t CH = cp->conv.w.out[1], CW = cp->conv.w.out[2], isz = cp->conv.w.in[1] * cp->conv.w.in[2];
  int64_t OH = pw->out[1], OW = pw->out[2], kh = pw->k[1], dh = pw->d[1], span = (kh - 1) * dh + 1;
  int64_t rsz = M * CW; /* floats of one ring row */
  float ring[GLOW_CONV_POOL_RING_FLOATS] __attribute__((aligned(64)));
  if (!glow_conv_pool_fits(&cp->conv, pw))
    return; /* the compiler does not make such a step */
  maxpool_row_geom g = maxpool_row_geom_of(CW, OW, pw->k[2], pw->s[2], pw->d[2], pw->pb[2]);
  glow_abi_conv row = cp->conv; /* one conv output row: the window moved down by the row's origin */
  row.N = 1;
  row.w.out[1] = 1;
  int64_t r0 = OH * part / nparts, r1 = OH * (part + 1) / nparts;
  const float *rows[GLOW_CONV_POOL_MAX_ROWS];
  for (int64_t n = 0; n < N; n++) {
    int64_t next = -1; /* the next conv row to make; rows below it up to `span` back are in the ring */
    for (int64_t oh = r0; oh < r1; oh++) {
      int64_t bh = oh * pw->s[1] - pw->pb[1], k0, k1;
      glow_nn_range(bh, dh, CH, kh, &k0, &k1);
      int64_t hi = k0 < k1 ? bh + (k1 - 1) * dh + 1 : 0; /* conv rows up to hi */
      next = next > bh ? next : bh > 0 ? bh : 0; /* from the window's first row: with dilation, a later
                                                  * window's first row inside X can come before this one's */
      for (; next < hi; next++) {
        row.w.pb[1] = cp->conv.w.pb[1] - next * cp->conv.w.s[1];
        uint8_t *rt[5] = {(uint8_t *)(ring + next % span * rsz), t[1] + n * C * isz * (int64_t)sizeof(float), t[2],
                          t[3], 0};
        glow_k_conv_packed_f32_part(rt, (const int64_t *)&row, 0, 1);
      }
      for (int64_t m = 0; m < M; m++) { /* no rows (a window all padding): -inf, as the MaxPool kernel */
        int64_t nr = 0;
        for (int64_t i = k0; i < k1; i++)
          rows[nr++] = ring + (bh + i * dh) % span * rsz + m * CW;
        maxpool_row_f32(y + ((n * M + m) * OH + oh) * OW, rows, nr, 1, &g);
      }
    }
  }
}

GLOW_KERNEL(conv_maxpool_f32) { glow_k_conv_maxpool_f32_part(t, p, 0, 1); }
