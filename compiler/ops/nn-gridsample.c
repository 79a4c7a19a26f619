/* GridSample (opset 16): Y[n][c][h][w] = X[n][c] sampled at Grid[n][h][w]
 * = (x, y) in [-1, 1], by bilinear, nearest or bicubic interpolation, with
 * zeros, border or reflection padding; 4-D only. The arithmetic is float, in
 * the order of PyTorch's grid_sampler_2d (the tests' source), so rounding and
 * floors agree at the edges of cells. */
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

static float gs_unnormalize(float c, int64_t size, int align) {
  return align ? (c + 1) / 2 * (float)(size - 1) : ((c + 1) * (float)size - 1) / 2;
}

static float gs_clip(float c, int64_t size) { return fminf((float)(size - 1), fmaxf(c, 0)); }

/* Reflects c into [lo2 / 2, hi2 / 2] (bounds doubled so they stay integers). */
static float gs_reflect(float c, int64_t lo2, int64_t hi2) {
  if (lo2 == hi2)
    return 0;
  float lo = (float)lo2 / 2, span = (float)(hi2 - lo2) / 2;
  c = fabsf(c - lo);
  float extra = fmodf(c, span), flips = floorf(c / span);
  return fmodf(flips, 2) == 0 ? extra + lo : span - extra + lo;
}

static float gs_pad(float c, int64_t size, const gs_plan *s) {
  if (s->pad == GS_BORDER)
    return gs_clip(c, size);
  if (s->pad == GS_REFLECTION)
    return gs_clip(s->align ? gs_reflect(c, 0, 2 * (size - 1)) : gs_reflect(c, -1, 2 * size - 1), size);
  return c;
}

/* X's plane at integer-valued (x, y), 0 outside. */
static float gs_at(const float *p, int64_t h, int64_t w, float y, float x) {
  return x >= 0 && x <= (float)(w - 1) && y >= 0 && y <= (float)(h - 1) ? p[(int64_t)y * w + (int64_t)x] : 0;
}

static float gs_cubic(const float v[4], float t) {
  const float a = -0.75f;
  float t1 = t + 1, t2 = 1 - t, t3 = 2 - t;
  float c0 = ((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a;
  float c1 = ((a + 2) * t - (a + 3)) * t * t + 1;
  float c2 = ((a + 2) * t2 - (a + 3)) * t2 * t2 + 1;
  float c3 = ((a * t3 - 5 * a) * t3 + 8 * a) * t3 - 4 * a;
  return v[0] * c0 + v[1] * c1 + v[2] * c2 + v[3] * c3;
}

static float gs_sample(const float *p, int64_t h, int64_t w, float gx, float gy, const gs_plan *s) {
  if (s->mode == GS_BICUBIC) {
    float ix = gs_unnormalize(gx, w, s->align), iy = gs_unnormalize(gy, h, s->align);
    float x0 = floorf(ix), y0 = floorf(iy), rows[4], v[4];
    for (int i = 0; i < 4; i++) {
      float y = gs_pad(y0 - 1 + (float)i, h, s);
      for (int j = 0; j < 4; j++)
        v[j] = gs_at(p, h, w, y, gs_pad(x0 - 1 + (float)j, w, s));
      rows[i] = gs_cubic(v, ix - x0);
    }
    return gs_cubic(rows, iy - y0);
  }
  float ix = gs_pad(gs_unnormalize(gx, w, s->align), w, s), iy = gs_pad(gs_unnormalize(gy, h, s->align), h, s);
  if (s->mode == GS_NEAREST)
    return gs_at(p, h, w, nearbyintf(iy), nearbyintf(ix));
  float x0 = floorf(ix), y0 = floorf(iy), x1 = x0 + 1, y1 = y0 + 1;
  return gs_at(p, h, w, y0, x0) * ((x1 - ix) * (y1 - iy)) + gs_at(p, h, w, y0, x1) * ((ix - x0) * (y1 - iy)) +
         gs_at(p, h, w, y1, x0) * ((x1 - ix) * (iy - y0)) + gs_at(p, h, w, y1, x1) * ((ix - x0) * (iy - y0));
}

static int eval_gridsample(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  gs_plan s;
  if (gs_get(g, n, &s))
    return -1;
  const glow_value *x = glow_in(g, n, 0), *grid = glow_in(g, n, 1);
  int64_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3], P = grid->dims[1] * grid->dims[2];
  const float *xp = ins[0], *gp = ins[1];
  float *y = outs[0];
  for (int64_t b = 0; b < N; b++)
    for (int64_t c = 0; c < C; c++)
      for (int64_t i = 0; i < P; i++) {
        const float *gi = gp + (b * P + i) * 2;
        *y++ = gs_sample(xp + (b * C + c) * H * W, H, W, gi[0], gi[1], &s);
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
  glow_kcall_params(kc, 4, x->dims);
  glow_kcall_param(kc, grid->dims[1] * grid->dims[2]);
  glow_kcall_param(kc, s.mode);
  glow_kcall_param(kc, s.pad);
  glow_kcall_param(kc, s.align);
  return 0;
}

const glow_op_info glow_op_GRID_SAMPLE = {"GridSample", 2, 2, 1, 1, infer_gridsample, eval_gridsample,
                                          lower_gridsample};
