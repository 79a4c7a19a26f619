/* A 1x1 convolution that widens the channels (an inverted residual block's expansion)
 * and the depthwise convolution that reads its output, float32, in bands of rows:
 * each band of the depthwise conv's output rows first has the 1x1 conv compute the
 * rows of T (its output, the depthwise conv's input) that the band reads and no band
 * before it did, then runs the depthwise conv over them while they are in cache.
 * Separately, the 1x1 conv wrote all of T (up to 96 channels of 112 x 112: 4.8 MB)
 * before the depthwise conv read it back from memory. T keeps its place and layout in
 * the activations (the planner's), and every output is the same sum as the two
 * kernels' alone: the 1x1 conv is glow_matmul_f32_range (gemm.c) on a range of T's
 * columns (pixels), the depthwise conv the plane kernel's or the 16-channel form's
 * range of rows (conv.c, conv-dw.c).
 * Parts (threads) take ranges of channels, the same for both convs: a part's
 * depthwise conv reads only the channels of T its own 1x1 conv wrote.
 * t: Y, X, W1, B1 (may be NULL), R1 (NULL), T, W2, B2 (may be NULL), R2 (the
 * residual, may be NULL); p: glow_abi_matmul (the 1x1 conv as compiler/ops/nn-conv.c
 * lowers it: W1 as A, X as B, one image), then glow_abi_conv (the depthwise conv, one
 * image). */
#include "kernel.h"
#include "kernels/dw16.h"

void glow_matmul_f32_range(uint8_t *const *t, const int64_t *p, int64_t mlo, int64_t mhi, int64_t nlo, int64_t nhi);
int glow_dw16_f32_ok(const int64_t *p);
void glow_dw16_f32_range(uint8_t *const *t, const int64_t *p, int64_t ulo, int64_t uhi, int64_t oh_lo, int64_t oh_hi);
int64_t glow_conv_plane_band(const int64_t *p);
void glow_conv_plane_f32_range(uint8_t *const *t, const int64_t *p, int64_t ulo, int64_t uhi, int64_t oh_lo,
                               int64_t oh_hi);
void glow_k_matmul_f32(uint8_t *const *t, const int64_t *p);
void glow_k_conv_f32(uint8_t *const *t, const int64_t *p);

/* The floats of T a band may hold (with the 1x1 conv's input rows, about half a
 * megabyte: in a core's L2 on the machines we measure). */
#define EXPAND_DW_BAND_FLOATS (96 * 1024)

GLOW_KERNEL_PART(expand_dw_f32) {
  uint8_t *tm[5] = {t[5], t[2], t[1], t[3], t[4]}, *td[5] = {t[0], t[5], t[6], t[7], t[8]};
  const int64_t *pm = p, *pd = p + GLOW_ABI_PARAMS(glow_abi_matmul);
  const glow_abi_conv *cp = (const glow_abi_conv *)pd;
  const glow_abi_win *w = &cp->w;
  int64_t M = cp->G, H = w->in[1], W = w->in[2], OH = w->out[1], sh = w->s[1], ph = w->pb[1];
  int64_t span = (w->k[1] - 1) * w->d[1] + 1;
  int dw16 = glow_dw16_f32_ok(pd);
  int64_t band = dw16 ? dw_shape_of(w).band : glow_conv_plane_band(pd);
  if (!band) { /* no band fits (the compiler does not fuse such convs): one part, in turn */
    if (part == 0) {
      glow_k_matmul_f32(tm, pm);
      glow_k_conv_f32(td, pd);
    }
    return;
  }
  /* Channels [c0, c1): whole blocks of 16 for the 16-channel form. */
  int64_t q = dw16 ? 16 : 1, nq = (M + q - 1) / q, u0 = nq * part / nparts, u1 = nq * (part + 1) / nparts;
  int64_t c0 = u0 * q, c1 = u1 * q < M ? u1 * q : M;
  if (c0 >= c1)
    return;
  /* Output rows per band: whole bands of the depthwise kernel, T's rows for them within the budget. */
  int64_t per = band;
  while (per + band < OH && ((per + band - 1) * sh + span) * W * (c1 - c0) <= EXPAND_DW_BAND_FLOATS)
    per += band;
  int64_t done = 0; /* T's rows [0, done) are computed */
  for (int64_t o0 = 0; o0 < OH; o0 += per) {
    int64_t o1 = o0 + per < OH ? o0 + per : OH, need = (o1 - 1) * sh - ph + span;
    need = need < H ? need : H;
    if (need > done) {
      glow_matmul_f32_range(tm, pm, c0, c1, done * W, need * W);
      done = need;
    }
    if (dw16)
      glow_dw16_f32_range(td, pd, u0, u1, o0, o1);
    else
      glow_conv_plane_f32_range(td, pd, c0, c1, o0, o1);
  }
  if (done < H) /* rows no output reads (a stride past the last one): T holds them all the same */
    glow_matmul_f32_range(tm, pm, c0, c1, done * W, H * W);
}

GLOW_KERNEL(expand_dw_f32) { glow_k_expand_dw_f32_part(t, p, 0, 1); }
