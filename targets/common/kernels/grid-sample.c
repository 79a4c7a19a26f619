/* GridSample on 4-D float tensors, in float and in the order of PyTorch's
 * grid_sampler_2d (nearest in onnxruntime's); checked against the reference
 * in compiler/ops/nn-gridsample.c, written from the spec. */
#include "kernel.h"
#include "kmath.h"

enum { GS_BILINEAR, GS_NEAREST, GS_BICUBIC };
enum { GS_ZEROS, GS_BORDER, GS_REFLECTION };

static inline float gs_unnormalize(float c, int64_t size, int64_t align) {
  return align ? (c + 1) / 2 * (float)(size - 1) : ((c + 1) * (float)size - 1) / 2;
}

static inline float gs_clip(float c, int64_t size) {
  float hi = (float)(size - 1);
  c = c > 0 ? c : 0;
  return c < hi ? c : hi;
}

/* Reflects c into [lo2 / 2, hi2 / 2]. */
static inline float gs_reflect(float c, int64_t lo2, int64_t hi2) {
  if (lo2 == hi2)
    return 0;
  float lo = (float)lo2 / 2, span = (float)(hi2 - lo2) / 2;
  c = glow_fabsf(c - lo);
  float extra = glow_fmodf(c, span), flips = glow_floorf(c / span);
  return glow_fmodf(flips, 2) == 0 ? extra + lo : span - extra + lo;
}

static inline float gs_pad(float c, int64_t size, int64_t pad, int64_t align) {
  if (pad == GS_BORDER)
    return gs_clip(c, size);
  if (pad == GS_REFLECTION)
    return gs_clip(align ? gs_reflect(c, 0, 2 * (size - 1)) : gs_reflect(c, -1, 2 * size - 1), size);
  return c;
}

/* The plane at integer-valued (x, y), 0 outside (NaN included). */
static inline float gs_at(const float *p, int64_t h, int64_t w, float y, float x) {
  return x >= 0 && x <= (float)(w - 1) && y >= 0 && y <= (float)(h - 1) ? p[(int64_t)y * w + (int64_t)x] : 0;
}

static inline float gs_cubic(const float *v, float t) {
  const float a = -0.75f;
  float t1 = t + 1, t2 = 1 - t, t3 = 2 - t;
  float c0 = ((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a;
  float c1 = ((a + 2) * t - (a + 3)) * t * t + 1;
  float c2 = ((a + 2) * t2 - (a + 3)) * t2 * t2 + 1;
  float c3 = ((a * t3 - 5 * a) * t3 + 8 * a) * t3 - 4 * a;
  return v[0] * c0 + v[1] * c1 + v[2] * c2 + v[3] * c3;
}

/* t: out [N][C][P], x [N][C][H][W], grid [N][P][2];
 * p: glow_abi_gridsample. */
GLOW_KERNEL(gridsample_f32) {
  float *o = (float *)t[0];
  const float *x = (const float *)t[1], *grid = (const float *)t[2];
  const glow_abi_gridsample *ap = (const glow_abi_gridsample *)p;
  int64_t N = ap->N, C = ap->C, h = ap->H, w = ap->W, P = ap->P, mode = ap->mode, pad = ap->padding;
  int64_t al = ap->align_corners;
  for (int64_t b = 0; b < N; b++)
    for (int64_t c = 0; c < C; c++) {
      const float *pl = x + (b * C + c) * h * w;
      for (int64_t i = 0; i < P; i++) {
        float gx = grid[(b * P + i) * 2], gy = grid[(b * P + i) * 2 + 1], r;
        if (mode == GS_BICUBIC) {
          float ix = gs_unnormalize(gx, w, al), iy = gs_unnormalize(gy, h, al);
          float x0 = glow_floorf(ix), y0 = glow_floorf(iy), rows[4], v[4];
          for (int k = 0; k < 4; k++) {
            float y = gs_pad(y0 - 1 + (float)k, h, pad, al);
            for (int j = 0; j < 4; j++)
              v[j] = gs_at(pl, h, w, y, gs_pad(x0 - 1 + (float)j, w, pad, al));
            rows[k] = gs_cubic(v, ix - x0);
          }
          r = gs_cubic(rows, iy - y0);
        } else {
          float ix = gs_unnormalize(gx, w, al), iy = gs_unnormalize(gy, h, al);
          if (mode == GS_NEAREST) { /* onnxruntime rounds, then pads (PyTorch pads, then rounds) */
            r = gs_at(pl, h, w, gs_pad(glow_roundf(iy), h, pad, al), gs_pad(glow_roundf(ix), w, pad, al));
          } else {
            ix = gs_pad(ix, w, pad, al);
            iy = gs_pad(iy, h, pad, al);
            float x0 = glow_floorf(ix), y0 = glow_floorf(iy), x1 = x0 + 1, y1 = y0 + 1;
            r = gs_at(pl, h, w, y0, x0) * ((x1 - ix) * (y1 - iy)) + gs_at(pl, h, w, y0, x1) * ((ix - x0) * (y1 - iy)) +
                gs_at(pl, h, w, y1, x0) * ((x1 - ix) * (iy - y0)) + gs_at(pl, h, w, y1, x1) * ((ix - x0) * (iy - y0));
          }
        }
        *o++ = r;
      }
    }
}
