/* RoiAlign (opset 16): for every region of interest, an output_height x
 * output_width grid of bins, each the average (or max) of bilinear samples of
 * X. Float, in the order of onnxruntime's RoiAlign (the tests' source): max
 * mode takes the largest weighted corner of every sample, and samples outside
 * [-1, size] count as 0. A batch index outside X gives zeros (a bundle cannot
 * report a run-time error). */
#include <math.h>
#include <string.h>

#include "ops/nn-util.h"

typedef struct {
  int64_t oh, ow, ratio;
  float scale;
  int half_pixel, max_mode;
} roi_plan;

static int roi_get(const glow_graph *g, const glow_node *n, roi_plan *r) {
  const glow_value *x = glow_in(g, n, 0), *rois = glow_in(g, n, 1), *bi = glow_in(g, n, 2);
  if (x->dt != GLOW_DT_F32 || rois->dt != GLOW_DT_F32)
    return glow_node_error(g, n, "X and rois must be float (they are %s and %s)", glow_dtype_name(x->dt),
                           glow_dtype_name(rois->dt));
  if (bi->dt != GLOW_DT_I64)
    return glow_node_error(g, n, "batch_indices must be int64 (it is %s)", glow_dtype_name(bi->dt));
  if (x->rank != 4)
    return glow_node_error(g, n, "X must be 4-D [N, C, H, W] (it is %d-D)", x->rank);
  if (rois->rank != 2 || rois->dims[1] != 4 || bi->rank != 1 || bi->dims[0] != rois->dims[0])
    return glow_node_error(g, n, "rois must be [num_rois, 4] and batch_indices [num_rois]");
  const char *mode = glow_attr_string(n, "mode", "avg");
  const char *ctm = glow_attr_string(n, "coordinate_transformation_mode", "half_pixel");
  if (strcmp(mode, "avg") && strcmp(mode, "max"))
    return glow_node_error(g, n, "mode '%s' is not supported (avg or max)", mode);
  if (strcmp(ctm, "half_pixel") && strcmp(ctm, "output_half_pixel"))
    return glow_node_error(g, n, "coordinate_transformation_mode '%s' is not supported (%s)", ctm,
                           "half_pixel or output_half_pixel");
  r->max_mode = !strcmp(mode, "max");
  r->half_pixel = !strcmp(ctm, "half_pixel");
  r->oh = glow_attr_int(n, "output_height", 1);
  r->ow = glow_attr_int(n, "output_width", 1);
  r->ratio = glow_attr_int(n, "sampling_ratio", 0);
  r->scale = (float)glow_attr_float(n, "spatial_scale", 1.0);
  if (r->oh < 1 || r->ow < 1 || r->oh > (1 << 20) || r->ow > (1 << 20))
    return glow_node_error(g, n, "output_height and output_width must be 1 to 2^20");
  if (r->ratio < 0 || r->ratio > 1024)
    return glow_node_error(g, n, "sampling_ratio must be 0 (adaptive) to 1024 (it is %lld)", (long long)r->ratio);
  return 0;
}

static int infer_roialign(glow_graph *g, glow_node *n) {
  roi_plan r;
  if (roi_get(g, n, &r))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  int64_t dims[4] = {glow_in(g, n, 1)->dims[0], x->dims[1], r.oh, r.ow};
  glow_value_set_shape(glow_out(g, n, 0), x->dt, 4, dims);
  return 0;
}

/* Samples per bin along an axis: sampling_ratio, or ceil(extent / bins). */
static int64_t roi_grid(const roi_plan *r, float extent, int64_t bins) {
  if (r->ratio > 0)
    return r->ratio;
  float k = ceilf(extent / (float)bins);
  return k >= 1 ? (k < 1024 ? (int64_t)k : 1024) : 1;
}

static float roi_max(float a, float b) { return a > b ? a : b; }

/* The sample of plane p at (y, x): avg mode the sum of its weighted corners, max mode their largest. */
static float roi_sample(const float *p, int64_t h, int64_t w, float y, float x, int max_mode) {
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

static int eval_roialign(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  roi_plan r;
  if (roi_get(g, n, &r))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  int64_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3], R = glow_in(g, n, 1)->dims[0];
  const float *xp = ins[0], *rois = ins[1];
  const int64_t *bi = ins[2];
  float *y = outs[0], off = r.half_pixel ? 0.5f : 0;
  for (int64_t k = 0; k < R; k++) {
    const float *roi = rois + k * 4;
    float x0 = roi[0] * r.scale - off, y0 = roi[1] * r.scale - off;
    float rw = roi[2] * r.scale - off - x0, rh = roi[3] * r.scale - off - y0;
    if (!r.half_pixel) {
      rw = roi_max(rw, 1);
      rh = roi_max(rh, 1);
    }
    float bh = rh / (float)r.oh, bw = rw / (float)r.ow;
    int64_t gh = roi_grid(&r, rh, r.oh), gw = roi_grid(&r, rw, r.ow), b = bi[k], inside = b >= 0 && b < N;
    float count = (float)(gh * gw);
    for (int64_t c = 0; c < C; c++) {
      const float *pl = xp + (inside ? b * C + c : 0) * H * W;
      for (int64_t ph = 0; ph < r.oh; ph++)
        for (int64_t pw = 0; pw < r.ow; pw++) {
          float acc = 0;
          for (int64_t iy = 0; inside && iy < gh; iy++)
            for (int64_t ix = 0; ix < gw; ix++) {
              float sy = y0 + (float)ph * bh + ((float)iy + 0.5f) * bh / (float)gh;
              float sx = x0 + (float)pw * bw + ((float)ix + 0.5f) * bw / (float)gw;
              float v = roi_sample(pl, H, W, sy, sx, r.max_mode);
              acc = !r.max_mode ? acc + v : iy == 0 && ix == 0 ? v : roi_max(acc, v);
            }
          *y++ = r.max_mode ? acc : acc / count;
        }
    }
  }
  return 0;
}

static int lower_roialign(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  roi_plan r;
  if (roi_get(g, n, &r))
    return -1;
  glow_kcall_init(kc, "glow_k_roialign_f32");
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, n->in[i]);
  glow_kcall_params(kc, 4, glow_in(g, n, 0)->dims);
  glow_kcall_param(kc, glow_in(g, n, 1)->dims[0]);
  glow_kcall_param(kc, r.oh);
  glow_kcall_param(kc, r.ow);
  glow_kcall_param(kc, r.ratio);
  glow_kcall_paramf(kc, r.scale);
  glow_kcall_param(kc, r.half_pixel);
  glow_kcall_param(kc, r.max_mode);
  return 0;
}

const glow_op_info glow_op_ROI_ALIGN = {"RoiAlign", 3, 3, 1, 1, infer_roialign, eval_roialign, lower_roialign};
