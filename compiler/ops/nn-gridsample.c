/* GridSample (opset 16, 20's linear/cubic names): Y[n][c][h][w] = X[n][c]
 * sampled at Grid[n][h][w] = (x, y) in [-1, 1], by bilinear, nearest or
 * bicubic interpolation, with zeros, border or reflection padding; 4-D only
 * (the kernel has no 5-D form). */
#include <math.h>
#include <string.h>

#include "ops/nn-util.h"

enum { GS_BILINEAR, GS_NEAREST, GS_BICUBIC };
enum { GS_ZEROS, GS_BORDER, GS_REFLECTION };

typedef struct {
  int mode, pad, align;
} gs_plan;

static int gs_get(const glow_graph *g, const glow_node *n, gs_plan *s) {
  const glow_value *x = glow_in(g, n, 0), *grid = glow_in(g, n, 1);
  if (x->dt != GLOW_DT_F32 || grid->dt != GLOW_DT_F32)
    return glow_node_error(g, n, "X and Grid must be float (they are %s and %s)", glow_dtype_name(x->dt),
                           glow_dtype_name(grid->dt));
  if (x->rank != 4)
    return glow_node_error(g, n, "X must be 4-D [N, C, H, W] (it is %d-D); other ranks are not supported", x->rank);
  if (grid->rank != 4 || grid->dims[0] != x->dims[0] || grid->dims[3] != 2)
    return glow_node_error(g, n, "Grid must be [N, H_out, W_out, 2] with X's N = %lld", (long long)x->dims[0]);
  const char *mode = glow_attr_string(n, "mode", "bilinear");
  const char *pad = glow_attr_string(n, "padding_mode", "zeros");
  if (!strcmp(mode, "bilinear") || !strcmp(mode, "linear"))
    s->mode = GS_BILINEAR;
  else if (!strcmp(mode, "nearest"))
    s->mode = GS_NEAREST;
  else if (!strcmp(mode, "bicubic") || !strcmp(mode, "cubic"))
    s->mode = GS_BICUBIC;
  else
    return glow_node_error(g, n, "mode '%s' is not supported (bilinear, nearest or bicubic)", mode);
  if (!strcmp(pad, "zeros"))
    s->pad = GS_ZEROS;
  else if (!strcmp(pad, "border"))
    s->pad = GS_BORDER;
  else if (!strcmp(pad, "reflection"))
    s->pad = GS_REFLECTION;
  else
    return glow_node_error(g, n, "padding_mode '%s' is not supported (zeros, border or reflection)", pad);
  int64_t ac = glow_attr_int(n, "align_corners", 0);
  if (ac != 0 && ac != 1)
    return glow_node_error(g, n, "align_corners must be 0 or 1 (it is %lld)", (long long)ac);
  s->align = (int)ac;
  return 0;
}

static int infer_gridsample(glow_graph *g, glow_node *n) {
  gs_plan s;
  if (gs_get(g, n, &s))
    return -1;
  const glow_value *x = glow_in(g, n, 0), *grid = glow_in(g, n, 1);
  int64_t dims[4] = {x->dims[0], x->dims[1], grid->dims[1], grid->dims[2]};
  glow_value_set_shape(glow_out(g, n, 0), x->dt, 4, dims);
  return 0;
}

/* The reference below is written from the ONNX GridSample spec and onnxruntime (the project's anchor), in double,
 * one output element at a time, as a sum over separable taps; it shares no code with kernels/grid-sample.c.
 * onnxruntime pads each tap's index, not the sampling location: nearest rounds the location (half to even) and
 * then pads, which differs from PyTorch (pad, then round) at a tie outside the image under reflection with
 * align_corners=0. */

/* The grid's [-1, 1] as a location in pixels along an axis of `size` pixels. */
static double gs_location(double g, int64_t size, int align) {
  return align ? (g + 1) / 2 * (double)(size - 1) : ((g + 1) * (double)size - 1) / 2;
}

/* Keys' cubic convolution kernel with a = -0.75 (PyTorch's and onnxruntime's bicubic) at distance d. */
static double gs_keys(double d) {
  const double a = -0.75;
  d = fabs(d);
  if (d <= 1)
    return ((a + 2) * d - (a + 3)) * d * d + 1;
  return d < 2 ? ((a * d - 5 * a) * d + 8 * a) * d - 4 * a : 0;
}

/* The taps of one axis: integer-valued indices (before padding) and their weights; returns their count. */
static int gs_taps(double loc, int mode, double at[4], double wt[4]) {
  if (mode == GS_NEAREST) {
    at[0] = nearbyint(loc);
    wt[0] = 1;
    return 1;
  }
  double base = floor(loc), t = loc - base;
  if (mode == GS_BILINEAR) {
    at[0] = base, at[1] = base + 1;
    wt[0] = 1 - t, wt[1] = t;
    return 2;
  }
  for (int i = 0; i < 4; i++) {
    at[i] = base - 1 + i;
    wt[i] = gs_keys(t + 1 - i);
  }
  return 4;
}

/* A tap's index after padding, or -1 for a zero. Reflection folds the index back and forth across the image's
 * edges (pixel centers 0 and size - 1 with align_corners, else the outer edges -0.5 and size - 0.5). */
static int64_t gs_index(double i, int64_t size, const gs_plan *s) {
  double last = (double)(size - 1);
  if (s->pad == GS_BORDER)
    i = fmin(fmax(i, 0), last);
  else if (s->pad == GS_REFLECTION) {
    double lo = s->align ? 0 : -0.5, span = s->align ? last : (double)size;
    if (span == 0)
      return 0;
    double m = fmod(fabs(i - lo), 2 * span);
    i = fmin(fmax(lo + (m <= span ? m : 2 * span - m), 0), last);
  }
  return i >= 0 && i <= last ? (int64_t)i : -1;
}

static double gs_point(const float *plane, int64_t h, int64_t w, double gx, double gy, const gs_plan *s) {
  double ly = gs_location(gy, h, s->align), lx = gs_location(gx, w, s->align);
  if (!isfinite(ly) || !isfinite(lx))
    return 0;
  double ay[4], wy[4], ax[4], wx[4], sum = 0;
  int ny = gs_taps(ly, s->mode, ay, wy), nx = gs_taps(lx, s->mode, ax, wx);
  for (int i = 0; i < ny; i++) {
    int64_t r = gs_index(ay[i], h, s);
    for (int j = 0; j < nx; j++) {
      int64_t c = gs_index(ax[j], w, s);
      if (r >= 0 && c >= 0)
        sum += wy[i] * wx[j] * (double)plane[r * w + c];
    }
  }
  return sum;
}

static int eval_gridsample(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  gs_plan s;
  if (gs_get(g, n, &s))
    return -1;
  const glow_value *xv = glow_in(g, n, 0), *gv = glow_in(g, n, 1);
  int64_t N = xv->dims[0], C = xv->dims[1], H = xv->dims[2], W = xv->dims[3], P = gv->dims[1] * gv->dims[2];
  const float *x = ins[0], *grid = ins[1];
  float *y = outs[0];
  for (int64_t b = 0; b < N; b++)
    for (int64_t c = 0; c < C; c++)
      for (int64_t o = 0; o < P; o++) {
        const float *at = grid + 2 * (b * P + o);
        y[(b * C + c) * P + o] = (float)gs_point(x + (b * C + c) * H * W, H, W, at[0], at[1], &s);
      }
  return 0;
}

static int lower_gridsample(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  gs_plan s;
  if (gs_get(g, n, &s))
    return -1;
  const glow_value *x = glow_in(g, n, 0), *grid = glow_in(g, n, 1);
  glow_kcall_init(kc, "glow_k_gridsample_f32");
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_abi_gridsample a = {.N = x->dims[0], .C = x->dims[1], .H = x->dims[2], .W = x->dims[3],
                           .P = grid->dims[1] * grid->dims[2], .mode = s.mode, .padding = s.pad,
                           .align_corners = s.align};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_GRID_SAMPLE = {"GridSample", 2, 2, 1, 1, infer_gridsample, eval_gridsample,
                                          lower_gridsample};
