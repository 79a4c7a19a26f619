/* RoiAlign (opset 16): for every region of interest, an output_height x
 * output_width grid of bins, each the average (or max) of bilinear samples of
 * X. A batch index outside X gives zeros (a bundle cannot report a run-time
 * error; onnxruntime refuses it). */
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

/* The reference below is written from the ONNX RoiAlign spec (and onnxruntime, the project's anchor, where the
 * spec is silent), in double, one output element at a time; it shares no code with kernels/roi-align.c. */

/* A sample point's four bilinear taps: plane offsets and weights. ONNX: a point more than one pixel outside the
 * plane weighs nothing; otherwise it is clamped into the plane and interpolated between its neighbours. */
typedef struct {
  int64_t at[4];
  double w[4];
} roi_taps;

static roi_taps roi_point(double y, double x, int64_t h, int64_t w) {
  roi_taps t = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  if (y < -1 || y > (double)h || x < -1 || x > (double)w)
    return t;
  double cy = fmin(fmax(y, 0), (double)(h - 1)), cx = fmin(fmax(x, 0), (double)(w - 1));
  int64_t r0 = (int64_t)floor(cy), c0 = (int64_t)floor(cx);
  int64_t r1 = r0 + 1 < h ? r0 + 1 : r0, c1 = c0 + 1 < w ? c0 + 1 : c0;
  double fy = cy - (double)r0, fx = cx - (double)c0;
  int64_t rows[2] = {r0, r1}, cols[2] = {c0, c1};
  double wy[2] = {1 - fy, fy}, wx[2] = {1 - fx, fx};
  for (int i = 0; i < 4; i++) {
    t.at[i] = rows[i / 2] * w + cols[i % 2];
    t.w[i] = wy[i / 2] * wx[i % 2];
  }
  return t;
}

/* Samples along one axis of a bin: sampling_ratio, or ceil(extent / bins); onnxruntime takes none when that is
 * not positive (an empty or inverted region gives 0). At most 1024, the kernels' bound on work per bin. */
static int64_t roi_samples(int64_t ratio, double extent, int64_t bins) {
  if (ratio > 0)
    return ratio;
  double k = ceil(extent / (double)bins);
  return !(k > 0) ? 0 : k > 1024 ? 1024 : (int64_t)k; /* NaN: none */
}

/* One output element: the bin (ph, pw) of a region with corner (y0, x0) and extent (rh, rw) on plane p. Avg mode
 * averages every sample's interpolated value; max mode, as onnxruntime and ONNX's reference do, takes the largest
 * single weighted tap w * X over all samples, not the largest interpolated value. */
static double roi_bin(const roi_plan *r, const float *p, int64_t h, int64_t w, const double box[4], int64_t ph,
                      int64_t pw) {
  double bh = box[2] / (double)r->oh, bw = box[3] / (double)r->ow;
  int64_t sy = roi_samples(r->ratio, box[2], r->oh), sx = roi_samples(r->ratio, box[3], r->ow);
  double sum = 0, best = -INFINITY;
  for (int64_t i = 0; i < sy; i++)
    for (int64_t j = 0; j < sx; j++) {
      double y = box[0] + bh * ((double)ph + ((double)i + 0.5) / (double)sy);
      double x = box[1] + bw * ((double)pw + ((double)j + 0.5) / (double)sx);
      roi_taps t = roi_point(y, x, h, w);
      for (int k = 0; k < 4; k++) {
        double v = t.w[k] * (double)p[t.at[k]];
        sum += v;
        best = fmax(best, v);
      }
    }
  if (r->max_mode)
    return sy * sx > 0 ? best : 0;
  return sum / (double)(sy * sx > 1 ? sy * sx : 1);
}

static int eval_roialign(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  roi_plan r;
  if (roi_get(g, n, &r))
    return -1;
  const glow_value *xv = glow_in(g, n, 0);
  int64_t N = xv->dims[0], C = xv->dims[1], H = xv->dims[2], W = xv->dims[3], R = glow_in(g, n, 1)->dims[0];
  const float *x = ins[0], *rois = ins[1];
  const int64_t *batch = ins[2];
  float *y = outs[0];
  double shift = r.half_pixel ? 0.5 : 0;
  for (int64_t k = 0; k < R; k++) {
    const float *roi = rois + 4 * k;
    /* box: top, left, height, width in X's pixels. output_half_pixel lifts every extent to at least 1. */
    double top = (double)roi[1] * r.scale - shift, left = (double)roi[0] * r.scale - shift;
    double box[4] = {top, left, (double)roi[3] * r.scale - shift - top, (double)roi[2] * r.scale - shift - left};
    if (!r.half_pixel) {
      box[2] = fmax(box[2], 1);
      box[3] = fmax(box[3], 1);
    }
    for (int64_t c = 0; c < C; c++)
      for (int64_t ph = 0; ph < r.oh; ph++)
        for (int64_t pw = 0; pw < r.ow; pw++) {
          double v = batch[k] >= 0 && batch[k] < N ? roi_bin(&r, x + (batch[k] * C + c) * H * W, H, W, box, ph, pw) : 0;
          y[((k * C + c) * r.oh + ph) * r.ow + pw] = (float)v;
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
  const int64_t *xd = glow_in(g, n, 0)->dims;
  glow_abi_roialign a = {.N = xd[0], .C = xd[1], .H = xd[2], .W = xd[3], .R = glow_in(g, n, 1)->dims[0],
                         .oh = r.oh, .ow = r.ow, .ratio = r.ratio, .scale = glow_f2p(r.scale),
                         .half_pixel = r.half_pixel, .max_mode = r.max_mode};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_ROI_ALIGN = {"RoiAlign", 3, 3, 1, 1, infer_roialign, eval_roialign, lower_roialign};
