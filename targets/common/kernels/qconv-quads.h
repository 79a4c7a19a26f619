/* QLinearConv's depthwise path (kernels/qconv.c) for targets with a 4-byte
 * int8 dot product (glow_qdot: vpdpbusd with VNNI, sdot on AArch64, the
 * portable one elsewhere): one input channel per group, weights in their ONNX
 * layout. It is qconv_plane2 (qconv-pairs.h) with quads of bytes where that
 * one has int16 pairs: the band scheme of qconv_rows, one channel at a time,
 * whose 4 bytes per word are 4 taps of a kernel row instead of 4 channels.
 *
 * A band of output rows reads its input rows, x' padded (x' is x as the dot
 * product wants it, with x_zero_point xz' as in qconv_rows; padding holds
 * xz'), as quad rows:
 *   pl[row][j] = (xp[row][j sw + t dw], t = 0..3)
 * Taps 4q .. 4q + 3 of a kernel row, for a run of 16 output columns, then
 * read 16 consecutive words at column offset 4q dw / sw (whole for strides 1
 * and 2, so there are no phases): one glow_qdot with those taps' weights (0
 * past the row's end).
 * The weights go in as signed bytes w'' = w (int8) or w - 128 (uint8); with
 * e = (128 or 0) - w_zero_point, over the K real taps,
 *   sum (x' - xz')(w - wz) = sum x' w'' - xz' sum w'' + e (sum x' - K xz')
 * where sum x' (needed only when e is not 0) is a dot product with ones on the
 * real taps. For mobilenet_v2's 3x3 that is 3 dot products per 16 outputs,
 * where the direct loops took 9 multiply-adds per output. */

#define QCONV4_PLANE (QCONV_BUF / 4) /* words of the band buffer */
#define QCONV4_PLANE_PITCH 1024      /* words of a quad row, at most */
#define QCONV4_PLANE_QUADS 64        /* weight words (rows x quads of taps), at most */
#define QCONV4_PLANE_ROW 4096        /* bytes of padded input rows (at least one) */

/* Words of one quad row: the output columns in whole vectors, and the last quad's offset. */
static inline int64_t qconv4_plane_pitch(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d;
  return (out[2] + 15) / 16 * 16 + 4 * ((k[2] + 3) / 4 - 1) * d[2] / s[2];
}

/* Bytes of the padded input row that qconv4_plane_row reads: its last vector
 * (a 32-byte load for stride 2) 3 dw further. */
static inline int64_t qconv4_plane_rowbytes(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *in = qa->w.in, *s = qa->w.s, *d = qa->w.d, *pb = qa->w.pb;
  int64_t need = s[2] * qconv4_plane_pitch(p) + 3 * d[2] + 16 * s[2];
  return need > pb[2] + in[2] ? need : pb[2] + in[2];
}

/* Output rows per band (a constant, as qconv2_plane_rows), 0 where this path
 * does not apply: one input channel per group, horizontal strides 1 and 2. */
static inline int64_t qconv4_plane_rows(const int64_t *p) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d;
  int64_t pw = qconv4_plane_pitch(p);
  if (!qconv_plane_applies(p) || pw > QCONV4_PLANE_PITCH || k[1] * ((k[2] + 3) / 4) > QCONV4_PLANE_QUADS ||
      qconv4_plane_rowbytes(p) > QCONV4_PLANE_ROW)
    return 0;
  return glow_nn_band_rows(QCONV4_PLANE, pw, (k[1] - 1) * d[1] + 1, s[1], out[1]);
}

/* One input row's quad row: dst[j] for j < pw (a multiple of 16), from rb: the
 * row of x' with pb zero points before it and enough after. */
static inline void qconv4_plane_row(uint32_t *dst, const uint8_t *rb, int64_t pw, int64_t sw, int64_t dw) {
  for (int64_t j = 0; j < pw; j += 16) {
    qconv_b16 v[4];
    for (int t = 0; t < 4; t++) {
      const uint8_t *src = rb + j * sw + t * dw;
      if (sw == 1) {
        v[t] = *(const qconv_b16 *)src;
      } else {
        qconv_b32 a = *(const qconv_b32 *)src;
        v[t] = __builtin_shufflevector(a, a, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
      }
    }
    qconv_quads(dst + j, v);
  }
}

/* One band's output rows of channel ch: w4[kh * KQ + kq] the weights of taps
 * 4 kq .. 4 kq + 3 of row kh, ones[kq] their mask; sums of x' only with xsum.
 * Where registers are 64 bytes and 32 (glow_qdot_wide()), 4 runs of 16 columns at
 * once: independent sums, and 64 outputs requantized together (glow_q_requant64);
 * runs past the row repeat its last run (read, never stored). */
static inline void qconv4_plane_out(uint8_t *y, const uint32_t *buf, const int32_t *w4, const int32_t *ones,
                                    int32_t corr, int32_t e, const glow_qf16 *mult, int32_t yz, int ysg, const int64_t *p,
                                    int64_t rows, int xsum) {
  const glow_abi_qconv *qa = QCONV_PAR(p);
  const int64_t *out = qa->w.out, *k = qa->w.k, *s = qa->w.s, *d = qa->w.d;
  int64_t OW = out[2], KH = k[1], KQ = (k[2] + 3) / 4, sh = s[1], sw = s[2], dh = d[1], dw = d[2];
  int64_t pw = qconv4_plane_pitch(p), last = (OW - 1) / 16 * 16;
  const int V = glow_qdot_wide() ? 4 : 1;
  for (int64_t r0 = 0; r0 < rows; r0++)
    for (int64_t ow0 = 0; ow0 < OW; ow0 += 16 * V) {
      glow_qi16 acc[4], xs[4];
      int64_t col[4];
      for (int q = 0; q < V; q++) {
        acc[q] = xs[q] = (glow_qi16){0};
        col[q] = ow0 + 16 * q < last ? ow0 + 16 * q : last;
      }
      for (int64_t kh = 0; kh < KH; kh++) {
        const uint32_t *br = buf + (r0 * sh + kh * dh) * pw;
        for (int64_t kq = 0; kq < KQ; kq++)
          for (int q = 0; q < V; q++) {
            const glow_q64 *xv = (const glow_q64 *)(br + col[q] + 4 * kq * dw / sw);
            glow_qdot(&acc[q], xv, w4[kh * KQ + kq]);
            if (xsum)
              glow_qdot(&xs[q], xv, ones[kq]);
          }
      }
      glow_qi16 a[4];
      for (int q = 0; q < V; q++)
        a[q] = acc[q] + corr + e * xs[q];
      int64_t nw = OW - ow0 < 16 * V ? OW - ow0 : 16 * V;
      uint8_t *yr = y + r0 * OW + ow0, v[64];
      if (V == 4 && nw == 64 && glow_q_requant64(yr, yr + 32, a, mult, mult, yz, ysg))
        continue;
      if (V != 4 || !glow_q_requant64(v, v + 32, a, mult, mult, yz, ysg))
        for (int q = 0; q < V; q++)
          glow_q_saturate16(v + 16 * q, (const int32_t *)&a[q], (const float *)mult, yz, ysg);
      for (int64_t j = 0; j < nw; j++)
        yr[j] = v[j];
    }
}

/* Part `part` of `nparts`: a range of the (image, channel) pairs. */
static inline void qconv_plane4(uint8_t *const *t, const int64_t *p, int64_t R, int64_t part, int64_t nparts) {
  QCONV_PLANE_ARGS(t, p);
  int64_t KH = k[1], KW = k[2], KQ = (KW + 3) / 4, pw = qconv4_plane_pitch(p);
  int64_t nrow = (R - 1) * sh + (KH - 1) * dh + 1, rbn = qconv4_plane_rowbytes(p);
  uint8_t xflip;
  int32_t xz = qconv_dot_x(t, xsg, &xflip), yz = glow_q_zero(t[8], 0, ysg);
  uint32_t padw = (uint8_t)xz * 0x01010101u;
  uint32_t buf[QCONV4_PLANE + 16] __attribute__((aligned(64))); /* + the last vector's overrun */
  uint8_t rb[QCONV4_PLANE_ROW];
  for (int64_t u = N * G * part / nparts; u < N * G * (part + 1) / nparts; u++) {
    int64_t n = u / G, g = u % G;
    const uint8_t *xc = x + u * IH * IW;
    for (int64_t oh0 = 0; oh0 < OH; oh0 += R) {
      int64_t rows = OH - oh0 < R ? OH - oh0 : R;
      /* Padded rows a chunk at a time, then their quad rows: reading a row right after
       * writing it made each unaligned load wait on the stores (store forwarding fails;
       * 144 channels 3x3 on 56 x 56 took 0.336 ms, 0.266 this way). */
      for (int64_t lr0 = 0, chunk = QCONV4_PLANE_ROW / rbn; lr0 < nrow; lr0 += chunk) {
        int64_t lr1 = nrow - lr0 < chunk ? nrow : lr0 + chunk;
        for (int64_t lr = lr0; lr < lr1; lr++) {
          int64_t ih = oh0 * sh - pb[1] + lr;
          if ((uint64_t)ih < (uint64_t)IH)
            qconv_plane_pad_row(rb + (lr - lr0) * rbn, xc + ih * IW, IW, pb[2], rbn, (uint8_t)xz, xflip);
        }
        for (int64_t lr = lr0; lr < lr1; lr++) {
          int64_t ih = oh0 * sh - pb[1] + lr;
          if ((uint64_t)ih < (uint64_t)IH) {
            qconv4_plane_row(buf + lr * pw, rb + (lr - lr0) * rbn, pw, sw, dw);
            continue;
          }
          for (int64_t j = 0; j < pw; j++)
            buf[lr * pw + j] = padw;
        }
      }
      for (int64_t m = 0; m < Mg; m++) {
        int64_t ch = g * Mg + m;
        const uint8_t *wm = t[4] + ch * KH * KW;
        int32_t wz = glow_q_zero(t[6], wz_pc ? ch : 0, wsg), e = (wsg ? 0 : 128) - wz, wsum = 0;
        int32_t w4[QCONV4_PLANE_QUADS], ones[QCONV4_PLANE_QUADS];
        for (int64_t kh = 0; kh < KH; kh++)
          for (int64_t kq = 0; kq < KQ; kq++) {
            uint32_t wq = 0, oq = 0;
            for (int64_t tp = 0; tp < 4 && 4 * kq + tp < KW; tp++) {
              int32_t wv = GLOW_Q8_ELEM(wm[kh * KW + 4 * kq + tp], wsg) - (wsg ? 0 : 128);
              wsum += wv;
              wq |= (uint32_t)(uint8_t)wv << 8 * tp;
              oq |= 1u << 8 * tp;
            }
            w4[kh * KQ + kq] = (int32_t)wq;
            ones[kq] = (int32_t)oq;
          }
        int32_t corr = (b ? b[ch] : 0) - xz * wsum - e * (int32_t)(KH * KW) * xz;
        glow_qf16 mult = (glow_qf16){0} + glow_q_multiplier(xscale, ws[ws_pc ? ch : 0], ys);
        uint8_t *yc = y + (n * G * Mg + ch) * OH * OW + oh0 * OW;
        if (e)
          qconv4_plane_out(yc, buf, w4, ones, corr, e, &mult, yz, ysg, p, rows, 1);
        else
          qconv4_plane_out(yc, buf, w4, ones, corr, 0, &mult, yz, ysg, p, rows, 0);
      }
    }
  }
}
