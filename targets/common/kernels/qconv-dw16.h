/* QLinearConv's depthwise path 16 channels to a vector (kernels/qconv.c), where the
 * target has 32 registers of 64 bytes (glow_qdot_wide()): one input and one output
 * channel per group, 2-D, weights in their ONNX layout. The band scheme of the float32
 * kernel (kernels/dw16.h, kernels/conv-dw.c) on x - x_zero_point and w - w_zero_point as
 * floats: each product is an integer of at most 255 * 255 = 65025 in magnitude, so
 * every partial sum of up to QDW16_TAPS of them (under 2^24) is exact in float, and the
 * sum is the int32 sum of the other paths. With the bias added as an integer it goes
 * through glow_q_saturate16 with the channel's multiplier as there: the same bytes.
 * It runs where qdw16_pays (kernels/dw16.h) says. */

#define QDW16_TAPS 256 /* 256 * 65025 < 2^24 */

/* 16 bytes of X as floats x - xz (through a pointer: a 64-byte vector is not returned
 * by value where the baseline has no AVX-512). */
static inline void qdw16_load(glow_nn_v16 *o, const uint8_t *p, int32_t xz, int xsg) {
  typedef uint8_t u8x16 __attribute__((vector_size(16), aligned(1)));
  typedef int8_t i8x16 __attribute__((vector_size(16), aligned(1)));
  typedef int32_t i32x16 __attribute__((vector_size(64), aligned(4)));
  u8x16 v = *(const u8x16 *)p;
  i32x16 w = xsg ? __builtin_convertvector((i8x16)v, i32x16) : __builtin_convertvector(v, i32x16);
  *o = __builtin_convertvector(w - xz, glow_nn_v16);
}
#define QDW16_V(p, xz, xsg)                                                                                            \
  ({                                                                                                                   \
    glow_nn_v16 v_;                                                                                                    \
    qdw16_load(&v_, (p), (xz), (xsg));                                                                                 \
    v_;                                                                                                                \
  })
#define QDW16_S(p, xz, xsg) ((float)(GLOW_Q8_ELEM(*(p), (xsg)) - (xz)))
DW_FILL(qdw16_fill, uint8_t, QDW16_V, QDW16_S)

/* 0 where this path does not take p; else runs part `part` of `nparts` (a range of the
 * (image, block of 16 channels) pairs) and returns 1. */
static inline int qconv_dw16(uint8_t *const *t, const int64_t *p, int64_t part, int64_t nparts) {
  QCONV_PLANE_ARGS(t, p);
  int64_t ksz = k[1] * k[2];
  if (!glow_qdot_wide() || qa->w_layout || qa->Cg != 1 || Mg != 1 || in[0] != 1 || out[0] != 1 || k[0] != 1 ||
      ksz > QDW16_TAPS || G < 16 || !qdw16_pays(OW))
    return 0;
  dw_shape g = dw_shape_of(&qa->w);
  (void)dw, (void)sw; /* QCONV_PLANE_ARGS's; g holds them */
  if (!g.band)
    return 0;
  const uint8_t *w = t[4];
  int32_t xz = glow_q_zero(t[3], 0, xsg), yz = glow_q_zero(t[8], 0, ysg);
  float buf[DW_BUF] __attribute__((aligned(64))), ob[DW_OUT] __attribute__((aligned(64)));
  glow_nn_v16 *wt = (glow_nn_v16 *)(buf + DW_BUF - ksz * 16), zero = {0};
  int64_t isz = IH * IW, osz = OH * OW, nblk = (G + 15) / 16, units = N * nblk;
  const uint8_t *xend = x + N * G * isz;
  for (int64_t u = units * part / nparts; u < units * (part + 1) / nparts; u++) {
    int64_t n = u / nblk, c0 = u % nblk * 16, mb = G - c0 < 16 ? G - c0 : 16;
    for (int64_t tap = 0; tap < ksz; tap++)
      for (int j = 0; j < 16; j++)
        wt[tap][j] = j < mb ? (float)(GLOW_Q8_ELEM(w[(c0 + j) * ksz + tap], wsg) -
                                      glow_q_zero(t[6], wz_pc ? c0 + j : 0, wsg))
                            : 0.0f;
    for (int64_t oh0 = 0; oh0 < OH; oh0 += g.band) {
      int64_t oh1 = oh0 + g.band < OH ? oh0 + g.band : OH, nr = (oh1 - oh0 - 1) * sh + (k[1] - 1) * dh + 1;
      qdw16_fill(buf, &g, x + (n * G + c0) * isz, isz, xend, mb, oh0 * sh - pb[1], nr, xz, xsg);
      for (int64_t r = 0; r < oh1 - oh0; r++)
        for (int64_t ow0 = 0; ow0 < OW; ow0 += DW_PT)
          dw_tile(&g, buf, wt, &zero, ob, r, ow0);
      int64_t np = (oh1 - oh0) * OW;
      uint8_t *yb = y + (n * G + c0) * osz + oh0 * OW;
      for (int64_t q = 0; q < np; q += 16) {
        int64_t nq = np - q < 16 ? np - q : 16;
        glow_nn_v16 r[16];
        for (int i = 0; i < 16; i++)
          r[i] = i < nq ? *(const glow_nn_v16 *)(ob + (q + i) * 16) : zero;
        glow_nn_transpose16(r); /* r[j]: channel c0 + j's nq outputs */
        for (int64_t j = 0; j < mb; j++) {
          int64_t ch = c0 + j;
          int32_t acc[16], bias = b ? b[ch] : 0;
          float mult[16];
          uint8_t v[16];
          for (int i = 0; i < 16; i++) {
            acc[i] = (int32_t)r[j][i] + bias;
            mult[i] = glow_q_multiplier(xscale, ws[ws_pc ? ch : 0], ys);
          }
          glow_q_saturate16(v, acc, mult, yz, ysg);
          for (int64_t i = 0; i < nq; i++)
            yb[j * osz + q + i] = v[i];
        }
      }
    }
  }
  return 1;
}
