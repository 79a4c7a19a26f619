/* Convolution, N x C x [D x [H x]] W layout; spatial axes right-aligned to 3. */
#include "kernel.h"
#include "kmath.h"
#include "kernels/epilogue.h"
#include "kernels/nn-vec.h"
#include "qdot.h" /* glow_qdot_wide(): the register tile */

/* The parameters: glow_abi_conv (kernel-abi.h). */
#define CONV_PAR(p) ((const glow_abi_conv *)(p))

/* The window's arrays (a glow_abi_win) by name, and its sizes. */
#define WIN_PARAMS(w)                                                                                                  \
  const int64_t *in = (w)->in, *out = (w)->out, *k = (w)->k, *s = (w)->s, *d = (w)->d, *pb = (w)->pb;                  \
  int64_t isz = in[0] * in[1] * in[2], osz = out[0] * out[1] * out[2], ksz = k[0] * k[1] * k[2]

/* Adds wv * x over every output position of one tap (kd, kh, kw): the valid
 * positions of each axis form a range, so the innermost loop has no tests. */
#define CONV_TAP(T, ACC, yo, xc, wv, XV)                                                                               \
  do {                                                                                                                 \
    int64_t d0, d1, h0, h1, w0, w1;                                                                                    \
    glow_nn_range(d[0] * kd - pb[0], s[0], in[0], out[0], &d0, &d1);                                                   \
    glow_nn_range(d[1] * kh - pb[1], s[1], in[1], out[1], &h0, &h1);                                                   \
    glow_nn_range(d[2] * kw - pb[2], s[2], in[2], out[2], &w0, &w1);                                                   \
    for (int64_t od = d0; od < d1; od++)                                                                               \
      for (int64_t oh = h0; oh < h1; oh++) {                                                                           \
        T *yr = (yo) + (od * out[1] + oh) * out[2];                                                                    \
        const int64_t ih = oh * s[1] + kh * d[1] - pb[1], id = od * s[0] + kd * d[0] - pb[0];                          \
        const __typeof__(*(xc)) *xr = (xc) + (id * in[1] + ih) * in[2] + kw * d[2] - pb[2];                            \
        for (int64_t ow = w0; ow < w1; ow++)                                                                           \
          yr[ow] += (ACC)(wv) * ((ACC)xr[ow * s[2]] XV);                                                               \
      }                                                                                                                \
  } while (0)

/* Direct convolution, one output channel plane at a time.
 * t: Y, X, W, B (B may be NULL); p: glow_abi_conv; float32 also takes the
 * epilogue (epilogue.h): t[4] the residual, p's epi. */
#define CONV(SUF, T)                                                                                                   \
  static inline void conv_direct_##SUF(uint8_t *const *t, const int64_t *p) {                                          \
    T *y = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1], *w = (const T *)t[2], *b = (const T *)t[3];                                          \
    const glow_abi_conv *cp = CONV_PAR(p);                                                                             \
    int64_t N = cp->N, G = cp->G, Cg = cp->Cg, Mg = cp->Mg;                                                            \
    WIN_PARAMS(&cp->w);                                                                                                \
    for (int64_t n = 0; n < N; n++)                                                                                    \
      for (int64_t g = 0; g < G; g++)                                                                                  \
        for (int64_t m = 0; m < Mg; m++) {                                                                             \
          T *yo = y + ((n * G + g) * Mg + m) * osz;                                                                    \
          T bias = b ? b[g * Mg + m] : (T)0;                                                                           \
          for (int64_t i = 0; i < osz; i++)                                                                            \
            yo[i] = bias;                                                                                              \
          for (int64_t c = 0; c < Cg; c++) {                                                                           \
            const T *xc = x + ((n * G + g) * Cg + c) * isz, *wc = w + ((g * Mg + m) * Cg + c) * ksz;                   \
            for (int64_t kd = 0; kd < k[0]; kd++)                                                                      \
              for (int64_t kh = 0; kh < k[1]; kh++)                                                                    \
                for (int64_t kw = 0; kw < k[2]; kw++)                                                                  \
                  CONV_TAP(T, T, yo, xc, wc[(kd * k[1] + kh) * k[2] + kw], );                                          \
          }                                                                                                            \
        }                                                                                                              \
  }

CONV(f32, float)
CONV(f64, double)

GLOW_KERNEL(conv_f64) { conv_direct_f64(t, p); }

GLOW_KERNEL(conv_f32) {
  conv_direct_f32(t, p);
  const glow_abi_conv *cp = CONV_PAR(p);
  glow_epi e = glow_epi_get(&cp->epi);
  const float *r = (const float *)t[4];
  float *y = (float *)t[0];
  int64_t n = cp->N * cp->G * cp->Mg * cp->w.out[0] * cp->w.out[1] * cp->w.out[2];
  if (r || e.kind != GLOW_EPI_NONE)
    for (int64_t i = 0; i < n; i++)
      y[i] = glow_epi_apply(e, r ? y[i] + r[i] : y[i]);
}

/* ConvInteger: int32 sums of (x - x_zero_point) * (w - w_zero_point).
 * t: Y, X, W, x_zero_point, w_zero_point (either may be NULL);
 * p: glow_abi_conv_integer. */
#define CONV_INTEGER(SUF, TX, TW)                                                                                      \
  GLOW_KERNEL(conv_integer_##SUF) {                                                                                    \
    int32_t *y = (int32_t *)t[0];                                                                                      \
    const TX *x = (const TX *)t[1], *xz = (const TX *)t[3];                                                            \
    const TW *w = (const TW *)t[2], *wz = (const TW *)t[4];                                                            \
    const glow_abi_conv_integer *cp = (const glow_abi_conv_integer *)p;                                                \
    int64_t N = cp->N, G = cp->G, Cg = cp->Cg, Mg = cp->Mg, wz_per_channel = cp->wz_per_channel;                       \
    int32_t xzv = xz ? (int32_t)xz[0] : 0;                                                                             \
    WIN_PARAMS(&cp->w);                                                                                                \
    for (int64_t n = 0; n < N; n++)                                                                                    \
      for (int64_t g = 0; g < G; g++)                                                                                  \
        for (int64_t m = 0; m < Mg; m++) {                                                                             \
          int32_t *yo = y + ((n * G + g) * Mg + m) * osz;                                                              \
          int32_t wzv = wz ? (int32_t)wz[wz_per_channel ? g * Mg + m : 0] : 0;                                         \
          for (int64_t i = 0; i < osz; i++)                                                                            \
            yo[i] = 0;                                                                                                 \
          for (int64_t c = 0; c < Cg; c++) {                                                                           \
            const TX *xc = x + ((n * G + g) * Cg + c) * isz;                                                           \
            const TW *wc = w + ((g * Mg + m) * Cg + c) * ksz;                                                          \
            for (int64_t kd = 0; kd < k[0]; kd++)                                                                      \
              for (int64_t kh = 0; kh < k[1]; kh++)                                                                    \
                for (int64_t kw = 0; kw < k[2]; kw++)                                                                  \
                  CONV_TAP(int32_t, int32_t, yo, xc, (int32_t)wc[(kd * k[1] + kh) * k[2] + kw] - wzv, -xzv);           \
          }                                                                                                            \
        }                                                                                                              \
  }

CONV_INTEGER(u8_u8, uint8_t, uint8_t)
CONV_INTEGER(u8_i8, uint8_t, int8_t)
CONV_INTEGER(i8_u8, int8_t, uint8_t)
CONV_INTEGER(i8_i8, int8_t, int8_t)

/* Fast float32 convolutions for layers with enough output channels per group:
 * an implicit GEMM, Y^T[pixels][channels] = im2col(X) * W^T, in register tiles
 * of PB output pixels x NB blocks of 16 output channels (PB x NB vector
 * accumulators). For each tap (kd, kh, kw) every pixel of the tile gets the
 * offset of its input in X, or, in tiles whose windows cross the border of X, a
 * pointer and a per-channel step that are a zero and 0 where the tap falls
 * outside; so the inner loop over input channels has no tests: it broadcasts
 * one input value per pixel and adds it times NB vectors of a weight panel,
 * panel[tap][c][16 * NB'] (NB' >= NB). The vector type is explicit so that LLVM
 * keeps the accumulators in registers on every target (it splits it where
 * vectors are narrower).
 *
 * conv_fast_f32 packs W into a stack panel per block of 16 channels and chunk
 * of input channels at run time; conv_packed_f32 reads W as the compiler packed
 * it (passes/pack-conv-weights.c), one panel per block of 16 * NB channels, all
 * input channels at once. */
#define CONV_PANEL GLOW_STACK_PANEL_FLOATS

/* A tile's operands. y, bias: the block's first output channel; x: its first
 * input channel; panel: its first channel's weights, cstride floats per input
 * channel, tstride per tap; load: start from Y (a later chunk), else from bias
 * (or 0); mb: the block's valid channels (16 * the tile's blocks at most). */
typedef struct {
  float *y;
  const float *x, *panel, *bias;
  int64_t cstride, tstride, cn, load, mb, osz, isz;
  const int64_t *in, *out, *k, *s, *d, *pb;
  /* Floats from each weight line a tile reads to a line it prefetches (0: itself). The
   * first nb tiles of a chunk prefetch the next chunk's lines, one line per input channel
   * each: where the weights come from L3 (the 7 x 7 convs of resnet50, 2-9 MiB each,
   * used by 49 pixels) the chunk after is then in L2 when its first tile starts. 512 ->
   * 2048 1x1 and 512 3x3 on 7 x 7: a chain of three resnet50 bottlenecks took 13.8 ms
   * (median of 11 alternating rounds; best 12.7), 11.3 (10.0) with it. */
  int64_t pf;
} conv_tile_args;

/* Window origins of the PB pixels from p0 (the last pixel repeats past the
 * end), and whether every tap of each falls inside X; *od, *oh, *ow: p0's
 * position, moved to the next tile's first pixel. */
static inline __attribute__((always_inline)) int conv_origins(const conv_tile_args *a, int PB, int64_t p0, int64_t *od,
                                                              int64_t *oh, int64_t *ow, int64_t *pd, int64_t *ph,
                                                              int64_t *pw) {
  const int64_t *in = a->in, *out = a->out, *k = a->k, *s = a->s, *d = a->d, *pb = a->pb;
  int inside = 1;
  for (int r = 0; r < PB; r++) {
    pd[r] = *od * s[0] - pb[0];
    ph[r] = *oh * s[1] - pb[1];
    pw[r] = *ow * s[2] - pb[2];
    inside &= pd[r] >= 0 && pd[r] + (k[0] - 1) * d[0] < in[0] && ph[r] >= 0 && ph[r] + (k[1] - 1) * d[1] < in[1] &&
              pw[r] >= 0 && pw[r] + (k[2] - 1) * d[2] < in[2];
    if (p0 + r + 1 < a->osz && ++*ow == out[2]) {
      *ow = 0;
      if (++*oh == out[1]) {
        *oh = 0;
        ++*od;
      }
    }
  }
  return inside;
}

/* One tile of PB pixels from p0 x NB blocks of 16 channels, kept pixel-major
 * in st (row r: pixel p0 + r, 16 * NB channels): read from there with load,
 * written there (rows past the last pixel too). */
#define CONV_TILE(NB, PB)                                                                                              \
  static inline __attribute__((always_inline)) void conv_tile_##NB##x##PB(const conv_tile_args *a, float *st,          \
                                                                          int64_t p0, int64_t *od, int64_t *oh,        \
                                                                          int64_t *ow) {                               \
    const int64_t *in = a->in, *k = a->k, *d = a->d;                                                                   \
    int64_t pd[PB], ph[PB], pw[PB], isz = a->isz, mb = a->mb;                                                          \
    int inside = conv_origins(a, PB, p0, od, oh, ow, pd, ph, pw);                                                      \
    glow_nn_v16 acc[PB][NB], bv[NB];                                                                                   \
    for (int q = 0; q < NB; q++) /* the bias, a vector per block */                                                    \
      glow_nn_load16_n(&bv[q], a->bias ? a->bias + q * 16 : 0, mb - q * 16);                                           \
    for (int r = 0; r < PB; r++)                                                                                       \
      for (int q = 0; q < NB; q++)                                                                                     \
        acc[r][q] = a->load ? *(const glow_nn_v16 *)(st + (r * NB + q) * 16) : bv[q];                                  \
    const float zero = 0.0f;                                                                                           \
    for (int64_t kd = 0, tap = 0; kd < k[0]; kd++)                                                                     \
      for (int64_t kh = 0; kh < k[1]; kh++)                                                                            \
        for (int64_t kw = 0; kw < k[2]; kw++, tap++) {                                                                 \
          const float *wp = a->panel + tap * a->tstride;                                                               \
          if (inside) {                                                                                                \
            int64_t off[PB];                                                                                           \
            for (int r = 0; r < PB; r++)                                                                               \
              off[r] = ((pd[r] + kd * d[0]) * in[1] + ph[r] + kh * d[1]) * in[2] + pw[r] + kw * d[2];                  \
            const float *xc = a->x;                                                                                    \
            /* Not unrolled: with few channels (3 in a stem conv) the whole loop was, and its                          \
             * broadcasts spilled (3 -> 32 3x3 stride 2 on 224 x 224: 0.556 -> 0.453 ms).                              \
             * Each channel's input line past the tile's on its way: a line of X the other thread                      \
             * wrote is a miss across cores, and the channels' lines lie a plane apart, a stride                       \
             * that crosses pages, which the hardware prefetchers do not follow (2 threads, 7                          \
             * alternating rounds: googlenet -5%, squeezenet1_1 -4%, mobilenet_v2 -2%; one thread                      \
             * within 1%). */                                                                                          \
            _Pragma("clang loop unroll(disable)")                                                                      \
            for (int64_t c = 0; c < a->cn; c++, wp += a->cstride, xc += isz) {                                         \
              glow_nn_v16 wv[NB];                                                                                      \
              __builtin_prefetch(wp + a->pf, 0, 2);                                                                    \
              __builtin_prefetch(xc + off[PB - 1] + 16, 0, 3);                                                         \
              for (int q = 0; q < NB; q++)                                                                             \
                wv[q] = *(const glow_nn_v16 *)(wp + q * 16);                                                           \
              for (int r = 0; r < PB; r++) {                                                                           \
                float xv = xc[off[r]];                                                                                 \
                for (int q = 0; q < NB; q++)                                                                           \
                  acc[r][q] += xv * wv[q];                                                                             \
              }                                                                                                        \
            }                                                                                                          \
            continue;                                                                                                  \
          }                                                                                                            \
          const float *src[PB];                                                                                        \
          int64_t step[PB];                                                                                            \
          for (int r = 0; r < PB; r++) {                                                                               \
            int64_t id = pd[r] + kd * d[0], ih = ph[r] + kh * d[1], iw = pw[r] + kw * d[2];                            \
            int ok = (uint64_t)id < (uint64_t)in[0] && (uint64_t)ih < (uint64_t)in[1] &&                               \
                     (uint64_t)iw < (uint64_t)in[2];                                                                   \
            src[r] = ok ? a->x + (id * in[1] + ih) * in[2] + iw : &zero;                                               \
            step[r] = ok ? isz : 0;                                                                                    \
          }                                                                                                            \
          _Pragma("clang loop unroll(disable)")                                                                        \
          for (int64_t c = 0; c < a->cn; c++, wp += a->cstride) {                                                      \
            glow_nn_v16 wv[NB];                                                                                        \
            __builtin_prefetch(wp + a->pf, 0, 2);                                                                      \
            for (int q = 0; q < NB; q++)                                                                               \
              wv[q] = *(const glow_nn_v16 *)(wp + q * 16);                                                             \
            for (int r = 0; r < PB; r++) {                                                                             \
              float xv = *src[r];                                                                                      \
              src[r] += step[r];                                                                                       \
              for (int q = 0; q < NB; q++)                                                                             \
                acc[r][q] += xv * wv[q];                                                                               \
            }                                                                                                          \
          }                                                                                                            \
        }                                                                                                              \
    for (int r = 0; r < PB; r++)                                                                                       \
      for (int q = 0; q < NB; q++)                                                                                     \
        *(glow_nn_v16 *)(st + (r * NB + q) * 16) = acc[r][q];                                                          \
  }

CONV_TILE(1, 6)
CONV_TILE(1, 12)
CONV_TILE(2, 12)
CONV_TILE(4, 6)

/* Pixels per register tile for blocks of 16 * nb channels at once: four blocks
 * x 6 pixels or two x 12 where there are 32 vector registers of 64 bytes (one
 * x 12 there too), else one block x 6. */
#define CONV_PB(nb) (glow_qdot_wide() ? ((nb) > 1 ? 24 / (nb) : 12) : 6)

/* Part `part` of `nparts`: an even share of the (unit, tile) pairs, units being
 * (image, group, block of channels) and tiles pb pixels of a unit's outputs, in
 * unit-major order: units [*u0, *u1), the first and last of them possibly in part
 * (conv_unit_px). Whole units only would leave one part a unit more than the
 * other (5 units on 2 threads: 3 against 2, the two threads' time 1.2x what an
 * even share takes). Either way each output is summed as in one part. */
typedef struct {
  int64_t ntiles, pb, osz, t0, t1; /* tiles per unit; the part's tiles [t0, t1) */
} conv_share;

static inline conv_share conv_split(int64_t units, int64_t osz, int64_t pb, int64_t part, int64_t nparts,
                                    int64_t *u0, int64_t *u1) {
  conv_share sh = {(osz + pb - 1) / pb, pb, osz, 0, 0};
  sh.t0 = units * sh.ntiles * part / nparts;
  sh.t1 = units * sh.ntiles * (part + 1) / nparts;
  *u0 = sh.t0 / sh.ntiles;
  *u1 = (sh.t1 + sh.ntiles - 1) / sh.ntiles;
  return sh;
}

/* Unit u's pixels [*p0, *p1) in the share (p0 a multiple of pb). */
static inline void conv_unit_px(const conv_share *sh, int64_t u, int64_t *p0, int64_t *p1) {
  int64_t a = u * sh->ntiles, lo = sh->t0 > a ? sh->t0 - a : 0, hi = sh->t1 < a + sh->ntiles ? sh->t1 - a : sh->ntiles;
  *p0 = lo * sh->pb;
  *p1 = hi * sh->pb < sh->osz ? hi * sh->pb : sh->osz;
}

/* Floats of the strip buffer: tiles run a strip of pixels at a time into it,
 * pixel-major; then 16 x 16 blocks transposed in registers move the strip to
 * Y's channel rows (whole vectors, not a scalar store per output), and the
 * epilogue takes those rows while in cache. */
/* At least 48 pixels (a multiple of 16 and of every tile's) and a tile of 6 past them, for one
 * block of 16 channels: with 2 KiB panels (armv6m) half a panel holds 16 pixels, and a strip
 * of none would never end. */
#define CONV_STRIP_MIN ((48 + 6) * 16)
#define CONV_STRIP_FLOATS                                                                                              \
  (GLOW_STACK_PANEL_FLOATS / 2 > CONV_STRIP_MIN ? GLOW_STACK_PANEL_FLOATS / 2 : CONV_STRIP_MIN)

/* Tiles over pixels [p0, p1) of the block `a` (nb blocks of 16 at once; p0 a
 * multiple of the tile's pixels), cchunk input channels at a time (the strip
 * keeps the sums between chunks, so that a chunk's panel stays in cache for
 * every tile of the strip), then, with epi, the epilogue e with residual res
 * (the block's first channel; NULL: none). */
static inline __attribute__((always_inline)) void conv_run(const conv_tile_args *a, int64_t nb, int64_t cchunk,
                                                           int64_t p0, int64_t p1, int epi, glow_epi e,
                                                           const float *res) {
  const int64_t *out = a->out;
  int64_t osz = a->osz, cw = 16 * nb, pbk = CONV_PB(nb), od = p0 / (out[1] * out[2]), oh = p0 / out[2] % out[1],
          ow = p0 % out[2];
  int64_t strip = (CONV_STRIP_FLOATS / cw - pbk) / 48 * 48; /* a multiple of 16 and of every tile's pixels */
  float st[CONV_STRIP_FLOATS] __attribute__((aligned(64)));
  /* The residual and a ReLU or clip go on as the strip moves to Y (still in registers); other
   * epilogues over Y's rows after it, while in cache. */
  int inreg = epi && glow_epi_in_regs(e);
  for (int64_t s0 = p0, s1; s0 < p1; s0 = s1) {
    s1 = s0 + strip < p1 ? s0 + strip : p1;
    if (p1 - s1 > 0 && p1 - s1 < 16 && s1 - s0 > 48) /* the last strip 16 pixels or more: whole groups (below) */
      s1 -= 48;
    for (int64_t g = s0; a->load && g < s1; g += 16)
      for (int64_t q = 0; q < nb; q++)
        glow_nn_strip_move(st + (g - s0) * cw + q * 16, cw, a->y + q * 16 * osz + g, osz, s1 - g < 16 ? s1 - g : 16,
                        a->mb - q * 16, 0);
    int64_t sd = od, sh = oh, sw = ow; /* s0's position, for every chunk */
    for (int64_t c0 = 0; c0 < a->cn; c0 += cchunk) {
      conv_tile_args ac = *a;
      ac.x += c0 * a->isz;
      ac.panel += c0 * a->cstride;
      ac.cn = a->cn - c0 < cchunk ? a->cn - c0 : cchunk;
      ac.load = a->load || c0 > 0;
      od = sd, oh = sh, ow = sw;
      for (int64_t q0 = s0; q0 < s1; q0 += pbk) {
        float *sq = st + (q0 - s0) * cw;
        int64_t ti = (q0 - s0) / pbk;
        ac.pf = a->pf && ti < nb ? cchunk * a->cstride + 16 * ti : 0;
        if (glow_qdot_wide() && nb == 4)
          conv_tile_4x6(&ac, sq, q0, &od, &oh, &ow);
        else if (glow_qdot_wide() && nb == 2)
          conv_tile_2x12(&ac, sq, q0, &od, &oh, &ow);
        else if (glow_qdot_wide())
          conv_tile_1x12(&ac, sq, q0, &od, &oh, &ow);
        else
          conv_tile_1x6(&ac, sq, q0, &od, &oh, &ow);
      }
    }
    /* A last group of fewer than 16 pixels ends where the strip does, over the group
     * before (the same values again): whole vectors, where the partial group's were
     * stored one float at a time (a ConvMaxPool's rows of 111 pixels: 15 of every 111). */
    for (int64_t g0 = s0; g0 < s1; g0 += 16) {
      int64_t g = s1 - g0 < 16 && s1 - s0 >= 16 ? s1 - 16 : g0, n = s1 - g < 16 ? s1 - g : 16;
      for (int64_t q = 0; q < nb && q * 16 < a->mb; q++)
        if (inreg)
          glow_epi_strip_out(st + (g - s0) * cw + q * 16, cw, a->y + q * 16 * osz + g, osz, n, a->mb - q * 16, e,
                             res ? res + q * 16 * osz + g : 0);
        else
          glow_nn_strip_move(st + (g - s0) * cw + q * 16, cw, a->y + q * 16 * osz + g, osz, n, a->mb - q * 16, 1);
    }
    /* One loop over the rows, not 16 copies of a vectorized row loop (compile time). */
    if (epi && !inreg && (res || e.kind != GLOW_EPI_NONE))
#pragma clang loop unroll(disable)
      for (int64_t j = 0; j < a->mb; j++)
        glow_epi_row(e, a->y + j * osz + s0, res ? res + j * osz + s0 : 0, s1 - s0);
  }
}

/* panel[tap][c][j] = W[j][c][tap] (W rows ld apart, zero for j >= rows): 16 x 16
 * blocks of each row's (c, tap) sequence transposed in registers. */
static inline void conv_pack(float *panel, const float *w, int64_t ld, int64_t rows, int64_t cn, int64_t ksz) {
  int64_t n = cn * ksz, kk = 0;
  for (; kk + 16 <= n; kk += 16) {
    glow_nn_v16 r[16];
    for (int j = 0; j < 16; j++)
      r[j] = j < rows ? *(const glow_nn_v16 *)(w + j * ld + kk) : (glow_nn_v16){0};
    glow_nn_transpose16(r);
    for (int i = 0; i < 16; i++)
      *(glow_nn_v16 *)(panel + ((kk + i) % ksz * cn + (kk + i) / ksz) * 16) = r[i];
  }
  for (; kk < n; kk++)
    for (int j = 0; j < 16; j++)
      panel[(kk % ksz * cn + kk / ksz) * 16 + j] = j < rows ? w[j * ld + kk] : 0.0f;
}

/* The caller (lowering) checks that 16 channels' taps of one input channel fit
 * the stack panel (taps * 16 <= CONV_PANEL). t: Y, X, W, B (B may be NULL);
 * p: as glow_k_conv_f32. */
GLOW_KERNEL_PART(conv_fast_f32) {
  float *y = (float *)t[0];
  const float *x = (const float *)t[1], *w = (const float *)t[2], *b = (const float *)t[3], *res = (const float *)t[4];
  const glow_abi_conv *cp = CONV_PAR(p);
  int64_t N = cp->N, G = cp->G, Cg = cp->Cg, Mg = cp->Mg;
  WIN_PARAMS(&cp->w);
  glow_epi e = glow_epi_get(&cp->epi);
  if (ksz * 16 > CONV_PANEL) { /* the lowering checks 64 KiB; a smaller target panel may not fit */
    if (part == 0)
      glow_k_conv_f32(t, p);
    return;
  }
  int64_t K = Cg * ksz, cchunk = CONV_PANEL / 16 / ksz;
  cchunk = cchunk < 1 ? 1 : cchunk > Cg ? Cg : cchunk;
  int64_t nmb = (Mg + 15) / 16, u0, u1, pfirst, pend;
  conv_share sh = conv_split(N * G * nmb, osz, CONV_PB(1), part, nparts, &u0, &u1);
  float panel[CONV_PANEL];
  for (int64_t u = u0; u < u1; u++) {
    int64_t n = u / (G * nmb), g = u / nmb % G, m0 = u % nmb * 16, mb = Mg - m0 < 16 ? Mg - m0 : 16;
    conv_unit_px(&sh, u, &pfirst, &pend);
    float *yb = y + ((n * G + g) * Mg + m0) * osz;
    for (int64_t c0 = 0; c0 < Cg; c0 += cchunk) {
      int64_t cn = Cg - c0 < cchunk ? Cg - c0 : cchunk;
      conv_pack(panel, w + (g * Mg + m0) * K + c0 * ksz, K, mb, cn, ksz);
      conv_tile_args a = {yb, x + ((n * G + g) * Cg + c0) * isz, panel, b ? b + g * Mg + m0 : 0, 16, cn * 16, cn,
                          c0 > 0, mb, osz, isz, in, out, k, s, d, pb, 0};
      conv_run(&a, 1, cn, pfirst, pend, c0 + cn == Cg, e, res ? res + (yb - y) : 0);
    }
  }
}

GLOW_KERNEL(conv_fast_f32) { glow_k_conv_fast_f32_part(t, p, 0, 1); }

/* A group's input (bytes) past which conv_packed_f32 runs spans of pixels. */
#define CONV_SPAN_INPUT (1 << 20)

/* W packed at compile time: per group, per block of 16 * nb output channels
 * (M/G a multiple of it, or one group whose last block is padded with zero
 * rows), panel[tap][c][16 * nb], blocks one after another.
 * t: Y, X, W (packed), B (B may be NULL); p: as glow_k_conv_f32, nb: panel_blocks. */
GLOW_KERNEL_PART(conv_packed_f32) {
  float *y = (float *)t[0];
  const float *x = (const float *)t[1], *w = (const float *)t[2], *b = (const float *)t[3], *res = (const float *)t[4];
  const glow_abi_conv *cp = CONV_PAR(p);
  int64_t N = cp->N, G = cp->G, Cg = cp->Cg, Mg = cp->Mg, nb = cp->panel_blocks;
  WIN_PARAMS(&cp->w);
  glow_epi e = glow_epi_get(&cp->epi);
  /* Registers for nb blocks at once, or one at a time. */
  int64_t tb = glow_qdot_wide() ? nb : 1, bw = 16 * tb, nmb = (Mg + bw - 1) / bw, u0, u1, pfirst, pend;
  /* Input channels per chunk: a panel of at most 64 KiB whole, else chunks of 32 KiB. */
  int64_t cchunk = Cg * ksz * bw <= 16384 ? Cg : 8192 / (ksz * bw);
  cchunk = cchunk < 1 ? 1 : cchunk;
  conv_share sh = conv_split(N * G * nmb, osz, CONV_PB(tb), part, nparts, &u0, &u1);
  /* The pixels of the share's units together: one unit's, else all (the first
   * unit's run to the end, the last's start at 0). */
  conv_unit_px(&sh, u0, &pfirst, &pend);
  if (u1 - u0 > 1)
    pfirst = 0, pend = osz;
  /* Spans of pixels, each through every block: where a group's input is larger than the
   * core's cache and its weights are not (a 1x1 conv with stride 2 on 56 x 56), each block
   * would read all of the input again; a span's input stays in cache for the next block. */
  int64_t gin = Cg * isz * 4, gw = Cg * ksz * Mg * 4, span = pend - pfirst;
  if (gin > CONV_SPAN_INPUT && gw <= CONV_SPAN_INPUT && u1 - u0 > 1)
    span = (CONV_SPAN_INPUT / 2 * osz / gin / 48 + 1) * 48; /* 48 pixels at least: few pixels, wide input */
  for (int64_t q0 = pfirst; q0 < pend; q0 += span)
    for (int64_t u = u0; u < u1; u++) {
      int64_t n = u / (G * nmb), g = u / nmb % G, m0 = u % nmb * bw, up0, up1;
      conv_unit_px(&sh, u, &up0, &up1); /* this span's pixels of unit u: [up0, up1) */
      up0 = up0 > q0 ? up0 : q0;
      up1 = up1 < q0 + span ? up1 : q0 + span;
      if (up0 >= up1)
        continue;
      float *yb = y + ((n * G + g) * Mg + m0) * osz;
      /* Block m0 / (16 nb) of the packed panels, sub-block m0 % (16 nb) / 16 of it. */
      const float *panel = w + (g * Mg + m0 / (16 * nb) * 16 * nb) * Cg * ksz + m0 % (16 * nb);
      conv_tile_args a = {yb, x + (n * G + g) * Cg * isz, panel, b ? b + g * Mg + m0 : 0, 16 * nb, Cg * 16 * nb, Cg,
                          0, Mg - m0 < bw ? Mg - m0 : bw, osz, isz, in, out, k, s, d, pb, 1};
      conv_run(&a, tb, cchunk, up0, up1, 1, e, res ? res + (yb - y) : 0);
    }
}

GLOW_KERNEL(conv_packed_f32) { glow_k_conv_packed_f32_part(t, p, 0, 1); }

/* Float32 convolution with few channels per group (depthwise and the like),
 * 1-D or 2-D: a band of each input channel's rows is copied once into a
 * zero-padded stack buffer, its columns split by the horizontal stride into
 * phases so that every tap of a run of 16 output columns reads 16 contiguous
 * floats; the band's outputs are then summed 16 columns to a vector, 8 vectors
 * at once (plane_band). A band is as many output rows as their input rows fit
 * CONV_PLANE floats (the whole plane when it fits): rows of s phases of
 * OW + (KW - 1) * d / s + 16 floats each. Bands change no sum: each output
 * still adds its channels, then taps, in order. The caller (lowering) checks
 * that the rows of one output row fit.
 * t: Y, X, W, B (B may be NULL); p: as glow_k_conv_f32. */
#define CONV_PLANE GLOW_STACK_PANEL_FLOATS

/* buf[row - r0][phase][j] = padded X[row][j * sw + phase] for rows [r0, r1): the
 * columns inside X, and rows outside X whole (zero); the padding columns of rows
 * inside X are the caller's to zero (once: they are the same in every row).
 * Stride 2 splits each run of 32 floats into both phases at once: [vs, ve) of
 * each phase comes from those vectors (j + 16 <= both phases' ends keeps the
 * last float read inside the row; the last run overlaps the one before), the
 * rest a float at a time. */
static inline void conv_plane_rows(float *buf, const float *xc, int64_t r0, int64_t r1, int64_t sw, int64_t pw,
                                   const int64_t *in, const int64_t *pb) {
  for (int64_t r = r0; r < r1; r++) {
    int64_t ih = r - pb[1], ok = (uint64_t)ih < (uint64_t)in[1], j0[2] = {0, 0}, j1[2] = {0, 0}, vs = 0, ve = 0;
    const float *xr = xc + ih * in[2] - pb[2];
    float *b0 = buf + (r - r0) * sw * pw;
    if (sw == 2 && ok) {
      glow_nn_range(-pb[2], 2, in[2], pw, &j0[0], &j1[0]);
      glow_nn_range(1 - pb[2], 2, in[2], pw, &j0[1], &j1[1]);
      vs = j0[0] > j0[1] ? j0[0] : j0[1];
      int64_t vend = j1[0] < j1[1] ? j1[0] : j1[1]; /* both phases inside X: [vs, vend) */
      for (ve = vs; ve < vend && vend - vs >= 16;) {
        /* the last 16 overlap the ones before (whole vectors: the scalar ends cost more) */
        int64_t v = ve + 16 <= vend ? ve : vend - 16;
        glow_nn_v16 lo = *(const glow_nn_v16 *)(xr + 2 * v), hi = *(const glow_nn_v16 *)(xr + 2 * v + 16);
        *(glow_nn_v16 *)(b0 + v) = GLOW_NN_EVEN16(lo, hi);
        *(glow_nn_v16 *)(b0 + pw + v) = GLOW_NN_ODD16(lo, hi);
        ve = v + 16;
      }
    }
    for (int64_t q = 0; q < sw; q++) {
      float *br = b0 + q * pw;
      int64_t lo = 0, hi = 0;
      if (ok)
        glow_nn_range(q - pb[2], sw, in[2], pw, &lo, &hi);
      if (sw == 1 && pw >= 64) { /* one loop of masked vectors: four short loops a row cost more (not on short rows) */
        for (int64_t j = 0; j < pw; j++)
          br[j] = j >= lo && j < hi ? xr[j] : 0.0f;
        continue;
      }
      int64_t m0 = vs < ve ? vs : hi, m1 = vs < ve ? ve : hi; /* done above: [m0, m1) */
      if (ok) { /* the padding columns are zero already (the caller's) */
        for (int64_t j = lo; j < m0; j++)
          br[j] = xr[j * sw + q];
        for (int64_t j = m1; j < hi; j++)
          br[j] = xr[j * sw + q];
      } else
        for (int64_t j = 0; j < pw; j++)
          br[j] = 0.0f;
    }
  }
}

/* One (output channel, input channel) pair's share of a band of output rows,
 * summed from the band buffer: y: the output channel's plane; buf, r0, rs, pw:
 * the buffer, its first input row, floats per row (all phases) and per phase;
 * wm: the pair's taps; load: add to Y (a later input channel), else start from
 * bias. */
typedef struct {
  float *y;
  const float *buf, *wm;
  int64_t oh0, oh1, r0, rs, pw, sh, sw, dh, dw, KH, KW, OW;
  float bias;
  int load;
} plane_args;

/* Taps summed per pass over a tile (their offsets and weights on the stack). */
#define PLANE_TAPS 32

/* Outputs of R rows from oh x V runs of 16 columns from ow0, nt taps (off:
 * each tap's offset in the buffer, wt: its weight): R x V independent
 * sums, so that the multiply-adds of different outputs overlap (one sum at a
 * time waits on each add). Rows past oh1 and runs past OW repeat the last valid
 * ones (read, never stored), so every read stays where the one-run loop read.
 * Each output is the same sum in the same order (bias or Y, then taps row by
 * row). */
#define PLANE_TILE(R, V)                                                                                               \
  static inline __attribute__((always_inline)) void plane_tile_##R##x##V(                                              \
      const plane_args *a, int64_t oh, int64_t ow0, const int64_t *off, const float *wt, int64_t nt, int load) {       \
    int64_t lastw = (a->OW - 1) / 16 * 16, row[R], col[V];                                                             \
    const float *rb[R];                                                                                                \
    for (int r = 0; r < R; r++) {                                                                                      \
      row[r] = oh + r < a->oh1 ? oh + r : a->oh1 - 1;                                                                  \
      rb[r] = a->buf + (row[r] * a->sh - a->r0) * a->rs;                                                               \
    }                                                                                                                  \
    for (int v = 0; v < V; v++)                                                                                        \
      col[v] = ow0 + 16 * v < lastw ? ow0 + 16 * v : lastw;                                                            \
    glow_nn_v16 acc[R][V];                                                                                             \
    for (int r = 0; r < R; r++)                                                                                        \
      for (int v = 0; v < V; v++) {                                                                                    \
        const float *yr = a->y + row[r] * a->OW + col[v];                                                              \
        int64_t nw = a->OW - col[v] < 16 ? a->OW - col[v] : 16;                                                        \
        acc[r][v] = (glow_nn_v16){0} + a->bias;                                                                        \
        if (load && nw == 16)                                                                                          \
          acc[r][v] = *(const glow_nn_v16 *)yr;                                                                        \
        else if (load)                                                                                                 \
          for (int j = 0; j < nw; j++)                                                                                 \
            acc[r][v][j] = yr[j];                                                                                      \
      }                                                                                                                \
    for (int64_t t = 0; t < nt; t++)                                                                                   \
      for (int r = 0; r < R; r++)                                                                                      \
        for (int v = 0; v < V; v++)                                                                                    \
          acc[r][v] += wt[t] * *(const glow_nn_v16 *)(rb[r] + off[t] + col[v]);                                        \
    for (int r = 0; r < R && oh + r < a->oh1; r++)                                                                     \
      for (int v = 0; v < V && ow0 + 16 * v < a->OW; v++) {                                                            \
        float *yr = a->y + row[r] * a->OW + col[v];                                                                    \
        int64_t nw = a->OW - col[v] < 16 ? a->OW - col[v] : 16;                                                        \
        if (nw == 16)                                                                                                  \
          *(glow_nn_v16 *)yr = acc[r][v];                                                                              \
        else                                                                                                           \
          for (int j = 0; j < nw; j++)                                                                                 \
            yr[j] = acc[r][v][j];                                                                                      \
      }                                                                                                                \
  }

PLANE_TILE(1, 8)
PLANE_TILE(2, 4)
PLANE_TILE(4, 2)
PLANE_TILE(8, 1)

/* The band's rows in tiles of 8 sums shaped to the row's runs of 16 columns,
 * PLANE_TAPS taps at a time (a later group adds to Y). */
static inline __attribute__((always_inline)) void plane_band(const plane_args *a) {
  int64_t runs = (a->OW + 15) / 16, V = runs >= 7 ? 8 : runs >= 3 ? 4 : runs == 2 ? 2 : 1, R = 8 / V;
  int64_t ksz = a->KH * a->KW, off[PLANE_TAPS];
  float wt[PLANE_TAPS];
  for (int64_t t0 = 0; t0 < ksz; t0 += PLANE_TAPS) {
    int64_t nt = ksz - t0 < PLANE_TAPS ? ksz - t0 : PLANE_TAPS;
    for (int64_t t = 0; t < nt; t++) {
      int64_t kh = (t0 + t) / a->KW, kw = (t0 + t) % a->KW;
      off[t] = kh * a->dh * a->rs + (kw * a->dw) % a->sw * a->pw + (kw * a->dw) / a->sw;
      wt[t] = a->wm[t0 + t];
    }
    int load = a->load || t0 > 0;
    for (int64_t oh = a->oh0; oh < a->oh1; oh += R)
      for (int64_t ow0 = 0; ow0 < a->OW; ow0 += 16 * V)
        if (V == 8)
          plane_tile_1x8(a, oh, ow0, off, wt, nt, load);
        else if (V == 4)
          plane_tile_2x4(a, oh, ow0, off, wt, nt, load);
        else if (V == 2)
          plane_tile_4x2(a, oh, ow0, off, wt, nt, load);
        else
          plane_tile_8x1(a, oh, ow0, off, wt, nt, load);
  }
}

/* Part `part` of `nparts`: a range of the (image, group) pairs. */
GLOW_KERNEL_PART(conv_plane_f32) {
  float *y = (float *)t[0];
  const float *x = (const float *)t[1], *w = (const float *)t[2], *b = (const float *)t[3], *res = (const float *)t[4];
  const glow_abi_conv *cp = CONV_PAR(p);
  int64_t N = cp->N, G = cp->G, Cg = cp->Cg, Mg = cp->Mg;
  WIN_PARAMS(&cp->w);
  glow_epi e = glow_epi_get(&cp->epi);
  int64_t sh = s[1], sw = s[2], dh = d[1], dw = d[2], KH = k[1], KW = k[2];
  int64_t pw = out[2] + (KW - 1) * dw / sw + 16, rs = sw * pw, span = (KH - 1) * dh + 1;
  int64_t band = glow_nn_band_rows(CONV_PLANE, rs, span, sh, out[1]);
  if (!band) { /* as in conv_fast_f32 */
    if (part == 0)
      glow_k_conv_f32(t, p);
    return;
  }
  float buf[CONV_PLANE];
  /* The rows' padding columns, zero once: conv_plane_rows writes only the columns inside X
   * (a row above or below X whole), the same columns in every row (the stride-2 rows'
   * zero ends, a scalar loop each, were 8% of mobilenet_v2's 96-channel stride-2 step). */
  for (int64_t j = 0, used = ((band - 1) * sh + span) * rs; j < used; j++)
    buf[j] = 0.0f;
  for (int64_t u = N * G * part / nparts; u < N * G * (part + 1) / nparts; u++)
    for (int64_t n = u / G, g = u % G, oh0 = 0; oh0 < out[1]; oh0 += band) {
      int64_t oh1 = oh0 + band < out[1] ? oh0 + band : out[1], r0 = oh0 * sh;
      for (int64_t c = 0; c < Cg; c++) {
        conv_plane_rows(buf, x + ((n * G + g) * Cg + c) * isz, r0, (oh1 - 1) * sh + span, sw, pw, in, pb);
        for (int64_t m = 0; m < Mg; m++) {
          float *ym = y + ((n * G + g) * Mg + m) * osz;
          const float *wm = w + ((g * Mg + m) * Cg + c) * ksz;
          float bias = b && c == 0 ? b[g * Mg + m] : 0.0f;
          plane_args pa = {ym, buf, wm, oh0, oh1, r0, rs, pw, sh, sw, dh, dw, KH, KW, out[2], bias, c > 0};
          plane_band(&pa);
          if (c == Cg - 1 && (res || e.kind != GLOW_EPI_NONE)) { /* the band, while in cache */
            float *yb = ym + oh0 * out[2];
            glow_epi_row(e, yb, res ? res + (yb - y) : 0, (oh1 - oh0) * out[2]);
          }
        }
      }
    }
}

GLOW_KERNEL(conv_plane_f32) { glow_k_conv_plane_f32_part(t, p, 0, 1); }
