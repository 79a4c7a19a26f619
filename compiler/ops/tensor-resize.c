/* Resize (opsets 10 to 19) and Upsample (7, 9). Output sizes and scales are
 * compile-time constants, so every output coordinate's source taps and
 * weights are computed here: nearest lowers to a table copy (any dtype),
 * linear and cubic to a weighted sum of taps per output element. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/tensor-util.h"

enum { M_NEAREST, M_LINEAR, M_CUBIC };
enum {
  C_HALF_PIXEL,
  C_HALF_PIXEL_SYMMETRIC,
  C_PYTORCH_HALF_PIXEL,
  C_ALIGN_CORNERS,
  C_ASYMMETRIC,
  C_TF_HALF_PIXEL_NN,
  C_TF_CROP_AND_RESIZE
};
enum { N_ROUND_PREFER_FLOOR, N_ROUND_PREFER_CEIL, N_FLOOR, N_CEIL, N_SIMPLE };

enum { K_STRETCH, K_NOT_LARGER, K_NOT_SMALLER };

typedef struct {
  int mode, coord, nearest, exclude_outside, keep;
  double cubic_a, extrapolation;
  int64_t out[GLOW_MAX_RANK];
  double scale[GLOW_MAX_RANK], roi_start[GLOW_MAX_RANK], roi_end[GLOW_MAX_RANK];
} resize_plan;

static int lookup(const char *s, const char *const *names, int count) {
  for (int i = 0; i < count; i++)
    if (names[i] && !strcmp(s, names[i]))
      return i;
  return -1;
}

static int resize_attrs(const glow_graph *g, const glow_node *n, resize_plan *p) {
  static const char *const modes[] = {"nearest", "linear", "cubic"};
  static const char *const coords[] = {"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                                       "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  static const char *const nearest[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  const char *m = glow_attr_string(n, "mode", "nearest");
  p->mode = lookup(m, modes, 3);
  if (p->mode < 0 && !strcmp(m, "bilinear") && n->op == GLOW_OP_UPSAMPLE)
    p->mode = M_LINEAR;
  if (p->mode < 0 || (p->mode == M_CUBIC && (n->op == GLOW_OP_UPSAMPLE || g->opset < 11)))
    return glow_node_error(g, n, "mode '%s' is not supported", m);
  p->exclude_outside = 0;
  p->keep = K_STRETCH;
  p->cubic_a = -0.75;
  p->extrapolation = 0;
  if (n->op == GLOW_OP_UPSAMPLE || g->opset < 11) { /* before attributes: asymmetric, nearest rounds as below */
    p->coord = C_ASYMMETRIC;
    p->nearest = N_SIMPLE;
    return 0;
  }
  const char *c = glow_attr_string(n, "coordinate_transformation_mode", "half_pixel");
  p->coord = lookup(c, coords, 7);
  if (p->coord < 0 || (p->coord == C_HALF_PIXEL_SYMMETRIC && g->opset < 19) ||
      (p->coord == C_TF_HALF_PIXEL_NN && g->opset >= 13))
    return glow_node_error(g, n, "coordinate_transformation_mode '%s' is not supported", c);
  const char *nm = glow_attr_string(n, "nearest_mode", "round_prefer_floor");
  if ((p->nearest = lookup(nm, nearest, 4)) < 0)
    return glow_node_error(g, n, "nearest_mode '%s' is not supported", nm);
  p->exclude_outside = glow_attr_int(n, "exclude_outside", 0) != 0;
  p->cubic_a = glow_attr_float(n, "cubic_coeff_a", -0.75);
  p->extrapolation = glow_attr_float(n, "extrapolation_value", 0.0);
  if (glow_attr_int(n, "antialias", 0))
    return glow_node_error(g, n, "antialias is not supported");
  static const char *const policies[] = {"stretch", "not_larger", "not_smaller"};
  const char *keep = glow_attr_string(n, "keep_aspect_ratio_policy", "stretch");
  if ((p->keep = lookup(keep, policies, 3)) < 0)
    return glow_node_error(g, n, "keep_aspect_ratio_policy '%s' is not supported", keep);
  return 0;
}

/* Output sizes and per-axis scales (and the ROI for tf_crop_and_resize). */
static int resize_get(const glow_graph *g, const glow_node *n, resize_plan *p) {
  const glow_value *x = glow_in(g, n, 0);
  int r = x->rank, upsample = n->op == GLOW_OP_UPSAMPLE, old = upsample || g->opset < 11;
  int scales_in = old ? 1 : 2, sizes_in = 3, na = r;
  int64_t axes[GLOW_MAX_RANK];
  double v[2 * GLOW_MAX_RANK];
  if (resize_attrs(g, n, p))
    return -1;
  if (r == 0)
    return glow_node_error(g, n, "the input must have rank >= 1");
  for (int d = 0; d < r; d++) {
    axes[d] = d;
    p->scale[d] = 1;
    p->out[d] = x->dims[d];
    p->roi_start[d] = 0;
    p->roi_end[d] = 1;
  }
  const int64_t *a;
  if (!old && (na = glow_attr_ints(n, "axes", &a)) >= 0) {
    if (na > r)
      return glow_node_error(g, n, "more axes than the input's rank");
    for (int i = 0; i < na; i++)
      if ((axes[i] = glow_norm_axis(g, n, a[i], r)) < 0)
        return -1;
  } else {
    na = r;
  }
  int k;
  if (upsample && g->opset < 9) {
    const double *f;
    const glow_attr *at = glow_attr_find(n, "scales");
    if (!at || at->type != GLOW_ATTR_FLOATS)
      return glow_node_error(g, n, "the scales attribute is missing");
    f = at->floats;
    k = at->n;
    for (int i = 0; i < k && i < r; i++)
      v[i] = f[i];
  } else if (glow_in(g, n, scales_in) && glow_value_numel(glow_in(g, n, scales_in)) > 0) {
    if ((k = glow_t_need_const_nums(g, n, scales_in, "the scales", v, 2 * GLOW_MAX_RANK)) < 0)
      return -1;
  } else {
    k = -1;
  }
  if (k >= 0) {
    if (!old && glow_in(g, n, sizes_in))
      return glow_node_error(g, n, "scales and sizes are both given");
    if (k != na)
      return glow_node_error(g, n, "scales has %d entries for %d axes", k, na);
    for (int i = 0; i < na; i++) {
      if (!(v[i] > 0) || !isfinite(v[i]))
        return glow_node_error(g, n, "scale %g is not positive", v[i]);
      p->scale[axes[i]] = v[i];
      p->out[axes[i]] = (int64_t)floor(v[i] * (double)x->dims[axes[i]]);
    }
  } else {
    int64_t sz[GLOW_MAX_RANK];
    if (old || !glow_in(g, n, sizes_in))
      return glow_node_error(g, n, "neither scales nor sizes are given");
    if ((k = glow_need_const_ints(g, n, sizes_in, "the sizes", sz, GLOW_MAX_RANK)) < 0)
      return -1;
    if (k != na)
      return glow_node_error(g, n, "sizes has %d entries for %d axes", k, na);
    /* keep_aspect_ratio_policy (opset 18): one scale for the axes, the smallest or the largest. */
    double common = p->keep == K_NOT_LARGER ? INFINITY : 0;
    for (int i = 0; i < na; i++) {
      if (sz[i] < 0 || x->dims[axes[i]] == 0)
        return glow_node_error(g, n, "cannot resize axis %lld to %lld", (long long)axes[i], (long long)sz[i]);
      double s = (double)sz[i] / (double)x->dims[axes[i]];
      common = p->keep == K_NOT_LARGER ? fmin(common, s) : fmax(common, s);
      p->out[axes[i]] = sz[i];
      p->scale[axes[i]] = s;
    }
    for (int i = 0; p->keep != K_STRETCH && i < na; i++) {
      p->scale[axes[i]] = common;
      p->out[axes[i]] = (int64_t)round(common * (double)x->dims[axes[i]]);
    }
  }
  if (p->coord == C_TF_CROP_AND_RESIZE) {
    if ((k = glow_t_need_const_nums(g, n, 1, "the roi", v, 2 * GLOW_MAX_RANK)) < 0)
      return -1;
    if (k != 2 * na)
      return glow_node_error(g, n, "roi has %d entries; %d expected", k, 2 * na);
    for (int i = 0; i < na; i++) {
      p->roi_start[axes[i]] = v[i];
      p->roi_end[axes[i]] = v[i + na];
    }
  }
  return 0;
}

static int infer_resize(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  resize_plan p;
  if (resize_get(g, n, &p) || glow_t_check_movable(g, n, x))
    return -1;
  if (p.mode != M_NEAREST && x->dt != GLOW_DT_F32 && x->dt != GLOW_DT_F64)
    return glow_node_error(g, n, "%s interpolation of type %s is not supported",
                           p.mode == M_LINEAR ? "linear" : "cubic", glow_dtype_name(x->dt));
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, p.out);
  return 0;
}

/* The source coordinate of output position o along an axis (the ONNX formulas); *outside is set when
 * tf_crop_and_resize falls outside the input. */
static double source_coord(const resize_plan *p, int d, int64_t o, int64_t in, int *outside) {
  double s = p->scale[d], x = (double)o, ow = s * (double)in, r;
  *outside = 0;
  switch (p->coord) {
  case C_ALIGN_CORNERS:
    return ow == 1 ? 0 : x * (double)(in - 1) / (ow - 1);
  case C_ASYMMETRIC:
    return x / s;
  case C_TF_HALF_PIXEL_NN:
    return (x + 0.5) / s;
  case C_PYTORCH_HALF_PIXEL:
    return ow == 1 ? -0.5 : (x + 0.5) / s - 0.5;
  case C_HALF_PIXEL_SYMMETRIC: {
    double adj = (double)p->out[d] / ow, off = (double)in / 2 * (1 - adj);
    return off + (x + 0.5) / s - 0.5;
  }
  case C_TF_CROP_AND_RESIZE:
    r = ow == 1 ? (p->roi_end[d] - p->roi_start[d]) * (double)(in - 1) / 2
                : x * (p->roi_end[d] - p->roi_start[d]) * (double)(in - 1) / (ow - 1);
    r += p->roi_start[d] * (double)(in - 1);
    *outside = r < 0 || r > (double)(in - 1);
    return r;
  default:
    return (x + 0.5) / s - 0.5;
  }
}

/* ---- reference: the ONNX reference algorithm, one output element at a time ---- */

#define MAX_TAPS 4

typedef struct {
  int n, outside;
  int64_t idx[MAX_TAPS]; /* already clamped to the input (edge padding) */
  double w[MAX_TAPS];
} taps;

/* The n nearest positions to x among the edge-padded input, preferring lower ones, with their coefficients. */
static void ref_taps(const resize_plan *p, int d, int64_t o, int64_t in, taps *t) {
  double x = source_coord(p, d, o, in, &t->outside);
  int n = p->mode == M_CUBIC ? 4 : 2, pad = (n + 1) / 2;
  double ratio = x == floor(x) ? 1 : x - floor(x), A = p->cubic_a, c[4];
  int64_t len = in + 2 * pad, pick[MAX_TAPS];
  int used = 0;
  while (used < n) { /* selection by (distance, index) over the padded positions */
    int64_t best = -1;
    for (int64_t i = 0; i < len; i++) {
      int taken = 0;
      for (int k = 0; k < used; k++)
        taken |= pick[k] == i;
      if (!taken && (best < 0 || fabs(x + pad - (double)i) < fabs(x + pad - (double)best)))
        best = i;
    }
    pick[used++] = best;
  }
  for (int a = 0; a < n; a++) /* ascending */
    for (int b = a + 1; b < n; b++)
      if (pick[b] < pick[a]) {
        int64_t tmp = pick[a];
        pick[a] = pick[b];
        pick[b] = tmp;
      }
  if (p->mode == M_CUBIC) {
    double r1 = ratio + 1, q = 1 - ratio, q1 = q + 1;
    c[0] = ((A * r1 - 5 * A) * r1 + 8 * A) * r1 - 4 * A;
    c[1] = ((A + 2) * ratio - (A + 3)) * ratio * ratio + 1;
    c[2] = ((A + 2) * q - (A + 3)) * q * q + 1;
    c[3] = ((A * q1 - 5 * A) * q1 + 8 * A) * q1 - 4 * A;
  } else if (p->mode == M_LINEAR) {
    c[0] = 1 - ratio;
    c[1] = ratio;
  } else {
    int up = ratio == 1 || p->nearest == N_CEIL || (p->nearest == N_ROUND_PREFER_FLOOR && ratio > 0.5) ||
             (p->nearest == N_ROUND_PREFER_CEIL && ratio >= 0.5);
    if (p->nearest == N_SIMPLE) /* Resize-10 and Upsample: truncate, but round up when downsampling */
      up = ratio == 1 || (p->scale[d] < 1 && ratio > 0);
    c[0] = !up;
    c[1] = up;
  }
  double sum = 0;
  t->n = n;
  for (int k = 0; k < n; k++) {
    int64_t i = pick[k] - pad;
    if (p->exclude_outside && (i < 0 || i >= in))
      c[k] = 0;
    sum += c[k];
    t->idx[k] = i < 0 ? 0 : i >= in ? in - 1 : i;
    t->w[k] = c[k];
  }
  for (int k = 0; p->exclude_outside && k < n; k++)
    t->w[k] /= sum;
}

static int eval_resize(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  resize_plan p;
  int r = x->rank;
  if (resize_get(g, n, &p))
    return -1;
  taps *tab[GLOW_MAX_RANK];
  for (int d = 0; d < r; d++) {
    tab[d] = glow_xmalloc(sizeof(taps) * (size_t)(o->dims[d] + 1));
    for (int64_t i = 0; i < o->dims[d]; i++)
      ref_taps(&p, d, i, x->dims[d], &tab[d][i]);
  }
  int64_t c[GLOW_MAX_RANK], t[GLOW_MAX_RANK];
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, r, o->dims, c);
    int outside = 0;
    for (int d = 0; d < r; d++)
      outside |= tab[d][c[d]].outside;
    if (outside) {
      glow_elem_set(o->dt, outs[0], i, p.extrapolation);
      continue;
    }
    double acc = 0;
    int64_t best_src = -1;
    double best_w = -1;
    for (int d = 0; d < r; d++)
      t[d] = 0;
    for (;;) { /* every combination of taps */
      double w = 1;
      int64_t si = 0;
      for (int d = 0; d < r; d++) {
        const taps *tp = &tab[d][c[d]];
        w *= tp->w[t[d]];
        si = si * x->dims[d] + tp->idx[t[d]];
      }
      acc += w * glow_elem_get(x->dt, ins[0], si);
      if (w > best_w) {
        best_w = w;
        best_src = si;
      }
      int d = r - 1;
      for (; d >= 0 && ++t[d] == tab[d][c[d]].n; d--)
        t[d] = 0;
      if (d < 0)
        break;
    }
    if (p.mode == M_NEAREST) /* exact copy of the chosen element, whatever its type */
      glow_t_copy_elem(o->dt, outs[0], i, ins[0], best_src);
    else
      glow_elem_set(o->dt, outs[0], i, acc);
  }
  for (int d = 0; d < r; d++)
    free(tab[d]);
  return 0;
}

/* ---- lowering: taps from the floor of the source coordinate ---- */

/* Taps of output position o along axis d: count, input positions (clamped) and weights; -1 position: outside. */
static int lower_taps(const resize_plan *p, int d, int64_t o, int64_t in, int64_t *pos, double *w) {
  int outside;
  double x = source_coord(p, d, o, in, &outside), f = floor(x), r = x - f;
  int64_t base = (int64_t)f;
  int k = 0;
  if (outside) {
    pos[0] = -1;
    w[0] = 0;
    return 1;
  }
  if (p->mode == M_NEAREST) {
    int up;
    switch (p->nearest) {
    case N_ROUND_PREFER_FLOOR:
      up = r > 0.5;
      break;
    case N_ROUND_PREFER_CEIL:
      up = r >= 0.5;
      break;
    case N_CEIL:
      up = r > 0;
      break;
    case N_SIMPLE:
      up = p->scale[d] < 1 && r > 0;
      break;
    default:
      up = 0;
      break;
    }
    pos[0] = base + up;
    w[0] = 1;
    k = 1;
  } else if (p->mode == M_LINEAR) {
    pos[0] = base;
    pos[1] = base + 1;
    w[0] = 1 - r;
    w[1] = r;
    k = 2;
  } else {
    double A = p->cubic_a;
    for (int j = 0; j < 4; j++) { /* the Keys kernel at distances 1 + r, r, 1 - r, 2 - r */
      double s = fabs(r - (double)(j - 1));
      pos[j] = base - 1 + j;
      w[j] = s <= 1 ? ((A + 2) * s - (A + 3)) * s * s + 1 : s < 2 ? ((A * s - 5 * A) * s + 8 * A) * s - 4 * A : 0;
    }
    k = 4;
  }
  double sum = 0;
  for (int j = 0; j < k; j++) {
    if (p->exclude_outside && (pos[j] < 0 || pos[j] >= in))
      w[j] = 0;
    sum += w[j];
    pos[j] = pos[j] < 0 ? 0 : pos[j] >= in ? in - 1 : pos[j];
  }
  for (int j = 0; p->exclude_outside && j < k; j++)
    w[j] /= sum;
  return k;
}

static int lower_resize(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  resize_plan p;
  int r = x->rank, rc;
  int64_t xs[GLOW_MAX_RANK], ntaps[GLOW_MAX_RANK], *pos[GLOW_MAX_RANK];
  double *w[GLOW_MAX_RANK];
  if (resize_get(g, n, &p))
    return -1;
  glow_dense_strides(r, x->dims, xs);
  for (int d = 0; d < r; d++) {
    size_t cap = (size_t)(o->dims[d] + 1) * MAX_TAPS;
    pos[d] = glow_xmalloc(sizeof(int64_t) * cap);
    w[d] = glow_xmalloc(sizeof(double) * cap);
    int64_t tp[MAX_TAPS];
    double tw[MAX_TAPS];
    int single = 1; /* every position reads one input element with weight 1: one tap */
    ntaps[d] = p.mode == M_NEAREST ? 1 : p.mode == M_LINEAR ? 2 : 4;
    for (int64_t i = 0; i < o->dims[d]; i++) {
      int k = lower_taps(&p, d, i, x->dims[d], tp, tw), nz = 0;
      for (int j = 0; j < ntaps[d]; j++) {
        pos[d][i * ntaps[d] + j] = j < k ? (tp[j] < 0 ? -1 : tp[j] * xs[d]) : tp[0] < 0 ? -1 : 0;
        w[d][i * ntaps[d] + j] = j < k ? tw[j] : 0;
        nz += j < k && tw[j] != 0;
        if (j < k && tw[j] != 0 && tw[j] != 1)
          single = 0;
      }
      single &= nz <= 1;
    }
    if (single && ntaps[d] > 1) { /* keep the tap of weight 1 (or any, when outside) */
      for (int64_t i = 0; i < o->dims[d]; i++) {
        int64_t keep = 0;
        for (int j = 0; j < ntaps[d]; j++)
          if (w[d][i * ntaps[d] + j] == 1)
            keep = j;
        pos[d][i] = pos[d][i * ntaps[d] + keep];
        w[d][i] = 1;
      }
      ntaps[d] = 1;
    }
  }
  int64_t combos = 1;
  for (int d = 0; d + 1 < r; d++)
    combos *= ntaps[d];
  if (p.mode == M_NEAREST) {
    rc = glow_t_lower_table(g, n, kc, pos, -1, glow_t_bits_of(o->dt, p.extrapolation));
  } else if (combos > 256) { /* the kernel's RESIZE_MAX_OUTER_TAPS */
    rc = glow_node_error(g, n, "interpolating this many axes at once is not supported");
  } else {
    glow_kcall_init(kc, "glow_k_resize_%s", glow_dtype_suffix(o->dt));
    glow_kcall_tensor(kc, n->out[0]);
    glow_kcall_tensor(kc, n->in[0]);
    glow_abi_resize a = {.r = r, .extrapolation = glow_f2p(p.extrapolation)};
    glow_kcall_abi(kc, &a, sizeof a);
    glow_kcall_params(kc, r, ntaps);
    glow_kcall_params(kc, r, o->dims);
    for (int d = 0; d < r; d++) {
      glow_kcall_params(kc, (int)(o->dims[d] * ntaps[d]), pos[d]);
      for (int64_t i = 0; i < o->dims[d] * ntaps[d]; i++)
        glow_kcall_paramf(kc, w[d][i]);
    }
    rc = 0;
  }
  for (int d = 0; d < r; d++) {
    free(pos[d]);
    free(w[d]);
  }
  return rc;
}

const glow_op_info glow_op_RESIZE = {"Resize", 1, 4, 1, 1, infer_resize, eval_resize, lower_resize};
const glow_op_info glow_op_UPSAMPLE = {"Upsample", 1, 2, 1, 1, infer_resize, eval_resize, lower_resize};
