/* RoiAlign on float tensors, in float and in the order of onnxruntime's
 * RoiAlign; checked against the reference in compiler/ops/nn-roialign.c,
 * written from the spec. */
#include "kernel.h"
#include "kmath.h"

static inline float roi_max(float a, float b) { return a > b ? a : b; }

/* Samples per bin along an axis: ratio, or ceil(extent / bins) up to 1024; none for an empty or inverted
 * region (onnxruntime's 0). */
static inline int64_t roi_grid(int64_t ratio, float extent, int64_t bins) {
  if (ratio > 0)
    return ratio;
  float k = glow_ceilf(extent / (float)bins);
  return k >= 1 ? (k < 1024 ? (int64_t)k : 1024) : 0;
}

/* The sample of plane p at (y, x): avg mode the sum of its weighted corners, max mode their largest. */
static inline float roi_sample(const float *p, int64_t h, int64_t w, float y, float x, int64_t max_mode) {
  if (y < -1.0f || y > (float)h || x < -1.0f || x > (float)w)
    return 0;
  y = y <= 0 ? 0 : y;
  x = x <= 0 ? 0 : x;
  int64_t y0 = (int64_t)y, x0 = (int64_t)x, y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1)
    y = (float)(y0 = y1 = h - 1);
  if (x0 >= w - 1)
    x = (float)(x0 = x1 = w - 1);
  float ly = y - (float)y0, lx = x - (float)x0, hy = 1 - ly, hx = 1 - lx;
  float v0 = hy * hx * p[y0 * w + x0], v1 = hy * lx * p[y0 * w + x1];
  float v2 = ly * hx * p[y1 * w + x0], v3 = ly * lx * p[y1 * w + x1];
  return max_mode ? roi_max(roi_max(roi_max(v0, v1), v2), v3) : v0 + v1 + v2 + v3;
}

/* t: out [R][C][oh][ow], x [N][C][H][W], rois [R][4] (x1, y1, x2, y2), batch_indices [R] (int64);
 * p: glow_abi_roialign.
 * A batch index outside [0, N) gives zeros. */
GLOW_KERNEL(roialign_f32) {
  float *o = (float *)t[0];
  const float *x = (const float *)t[1], *rois = (const float *)t[2];
  const int64_t *bi = (const int64_t *)t[3];
  const glow_abi_roialign *ap = (const glow_abi_roialign *)p;
  int64_t N = ap->N, C = ap->C, H = ap->H, W = ap->W, R = ap->R, oh = ap->oh, ow = ap->ow, ratio = ap->ratio;
  int64_t half_pixel = ap->half_pixel, max_mode = ap->max_mode;
  float scale = (float)glow_pf(ap->scale), off = half_pixel ? 0.5f : 0;
  for (int64_t k = 0; k < R; k++) {
    const float *roi = rois + k * 4;
    float x0 = roi[0] * scale - off, y0 = roi[1] * scale - off;
    float rw = roi[2] * scale - off - x0, rh = roi[3] * scale - off - y0;
    if (!half_pixel) {
      rw = roi_max(rw, 1);
      rh = roi_max(rh, 1);
    }
    float bh = rh / (float)oh, bw = rw / (float)ow;
    int64_t gh = roi_grid(ratio, rh, oh), gw = roi_grid(ratio, rw, ow), b = bi[k], inside = b >= 0 && b < N;
    float count = gh * gw > 1 ? (float)(gh * gw) : 1;
    for (int64_t c = 0; c < C; c++) {
      const float *pl = x + (inside ? b * C + c : 0) * H * W;
      for (int64_t ph = 0; ph < oh; ph++)
        for (int64_t pw = 0; pw < ow; pw++) {
          float acc = 0;
          for (int64_t iy = 0; inside && iy < gh; iy++)
            for (int64_t ix = 0; ix < gw; ix++) {
              float sy = y0 + (float)ph * bh + ((float)iy + 0.5f) * bh / (float)gh;
              float sx = x0 + (float)pw * bw + ((float)ix + 0.5f) * bw / (float)gw;
              float v = roi_sample(pl, H, W, sy, sx, max_mode);
              acc = !max_mode ? acc + v : iy == 0 && ix == 0 ? v : roi_max(acc, v);
            }
          *o++ = max_mode ? acc : acc / count;
        }
    }
  }
}
