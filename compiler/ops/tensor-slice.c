/* Slice, Pad and Compress: every output element reads one input element
 * (or Pad's constant) found axis by axis. Slice lowers to a strided copy;
 * Pad and Compress to per-axis offset tables. */
#include <stdlib.h>
#include <string.h>

#include "ops/tensor-util.h"

/* ---- Slice ---- */

typedef struct {
  int64_t start[GLOW_MAX_RANK], step[GLOW_MAX_RANK], len[GLOW_MAX_RANK];
} slice_plan;

/* Slice arguments: attributes before opset 10, constant inputs from 10 on.
 * Returns the count, -2 if absent, or -1 after an error. */
static int slice_arg(const glow_graph *g, const glow_node *n, int idx, const char *name, int64_t *v) {
  if (g->opset < 10) {
    const int64_t *a;
    int k = glow_attr_ints(n, name, &a);
    if (k > GLOW_MAX_RANK)
      return glow_node_error(g, n, "%s has more than %d entries", name, GLOW_MAX_RANK);
    for (int i = 0; i < k; i++)
      v[i] = a[i];
    return k < 0 ? -2 : k;
  }
  if (!glow_in(g, n, idx))
    return -2;
  return glow_need_const_ints(g, n, idx, name, v, GLOW_MAX_RANK);
}

static int slice_get(const glow_graph *g, const glow_node *n, slice_plan *s) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t starts[GLOW_MAX_RANK], ends[GLOW_MAX_RANK], axes[GLOW_MAX_RANK], steps[GLOW_MAX_RANK];
  int seen[GLOW_MAX_RANK] = {0};
  int k = slice_arg(g, n, 1, "starts", starts), ke = slice_arg(g, n, 2, "ends", ends);
  int ka = slice_arg(g, n, 3, "axes", axes), ks = slice_arg(g, n, 4, "steps", steps);
  if (k == -1 || ke == -1 || ka == -1 || ks == -1)
    return -1;
  if (k < 0 || ke < 0)
    return glow_node_error(g, n, "starts or ends are missing");
  if (ke != k || (ka >= 0 && ka != k) || (ks >= 0 && ks != k))
    return glow_node_error(g, n, "starts, ends, axes and steps differ in length");
  for (int d = 0; d < x->rank; d++) {
    s->start[d] = 0;
    s->step[d] = 1;
    s->len[d] = x->dims[d];
  }
  for (int i = 0; i < k; i++) {
    int a = glow_norm_axis(g, n, ka >= 0 ? axes[i] : i, x->rank);
    if (a < 0)
      return -1;
    if (seen[a]++)
      return glow_node_error(g, n, "axis %d is sliced twice", a);
    int64_t dim = x->dims[a], st = ks >= 0 ? steps[i] : 1, b = starts[i], e = ends[i];
    if (st == 0)
      return glow_node_error(g, n, "steps must not be 0");
    if (b < 0)
      b += dim;
    if (e < 0)
      e += dim;
    if (st > 0) {
      b = b < 0 ? 0 : b > dim ? dim : b;
      e = e < 0 ? 0 : e > dim ? dim : e;
      s->len[a] = e > b ? (e - b + st - 1) / st : 0;
    } else {
      b = b < 0 ? 0 : b > dim - 1 ? dim - 1 : b;
      e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
      s->len[a] = b > e ? (b - e - st - 1) / -st : 0;
    }
    s->start[a] = b;
    s->step[a] = st;
  }
  return 0;
}

static int infer_slice(glow_graph *g, glow_node *n) {
  slice_plan s;
  const glow_value *x = glow_in(g, n, 0);
  if (slice_get(g, n, &s))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, s.len);
  return 0;
}

static int eval_slice(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  slice_plan s;
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t c[GLOW_MAX_RANK];
  if (slice_get(g, n, &s))
    return -1;
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, c);
    int64_t si = 0;
    for (int d = 0; d < x->rank; d++)
      si = si * x->dims[d] + s.start[d] + c[d] * s.step[d];
    glow_t_copy_elem(o->dt, outs[0], i, ins[0], si);
  }
  return 0;
}

static int lower_slice(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  slice_plan s;
  const glow_value *x = glow_in(g, n, 0);
  int64_t xs[GLOW_MAX_RANK], st[GLOW_MAX_RANK], off = 0;
  if (slice_get(g, n, &s))
    return -1;
  glow_dense_strides(x->rank, x->dims, xs);
  for (int d = 0; d < x->rank; d++) {
    off += s.start[d] * xs[d];
    st[d] = s.step[d] * xs[d];
  }
  return glow_t_lower_strided(g, n, kc, x->rank, s.len, st, glow_value_numel(glow_out(g, n, 0)) ? off : 0);
}

const glow_op_info glow_op_SLICE = {"Slice", 1, 5, 1, 1, infer_slice, eval_slice, lower_slice};

/* ---- Pad ---- */

enum { PAD_CONSTANT, PAD_REFLECT, PAD_EDGE, PAD_WRAP };

typedef struct {
  int mode;
  int64_t begin[GLOW_MAX_RANK], end[GLOW_MAX_RANK];
  double value; /* the constant before opset 11 */
} pad_plan;

static int pad_get(const glow_graph *g, const glow_node *n, pad_plan *p) {
  const glow_value *x = glow_in(g, n, 0);
  int r = x->rank, k;
  int64_t pads[2 * GLOW_MAX_RANK], axes[GLOW_MAX_RANK];
  const char *mode = glow_attr_string(n, "mode", "constant");
  p->mode = !strcmp(mode, "constant")                 ? PAD_CONSTANT
            : !strcmp(mode, "reflect")                ? PAD_REFLECT
            : !strcmp(mode, "edge")                   ? PAD_EDGE
            : !strcmp(mode, "wrap") && g->opset >= 19 ? PAD_WRAP
                                                      : -1;
  if (p->mode < 0)
    return glow_node_error(g, n, "mode '%s' is not supported", mode);
  p->value = glow_attr_float(n, "value", 0.0);
  if (g->opset < 11) {
    const int64_t *a;
    k = glow_attr_ints(n, g->opset < 2 ? "paddings" : "pads", &a);
    if (k < 0)
      return glow_node_error(g, n, "the pads attribute is missing");
    for (int i = 0; i < k && i < 2 * GLOW_MAX_RANK; i++)
      pads[i] = a[i];
  } else if ((k = glow_need_const_ints(g, n, 1, "the pads", pads, 2 * GLOW_MAX_RANK)) < 0) {
    return -1;
  }
  int na = r;
  for (int d = 0; d < r; d++)
    axes[d] = d;
  if (glow_in(g, n, 3) && (na = glow_need_const_ints(g, n, 3, "the axes", axes, GLOW_MAX_RANK)) < 0)
    return -1;
  if (k != 2 * na)
    return glow_node_error(g, n, "pads has %d entries; %d expected", k, 2 * na);
  for (int d = 0; d < r; d++)
    p->begin[d] = p->end[d] = 0;
  for (int i = 0; i < na; i++) {
    int a = glow_norm_axis(g, n, axes[i], r);
    if (a < 0)
      return -1;
    p->begin[a] = pads[i];
    p->end[a] = pads[i + na];
  }
  for (int d = 0; d < r; d++) {
    if (x->dims[d] + p->begin[d] + p->end[d] < 0)
      return glow_node_error(g, n, "pads remove more than the %lld elements of axis %d", (long long)x->dims[d], d);
    if (p->mode != PAD_CONSTANT && x->dims[d] == 0 && p->begin[d] + p->end[d] > 0)
      return glow_node_error(g, n, "mode '%s' cannot pad the empty axis %d", mode, d);
  }
  const glow_value *cv = glow_in(g, n, 2);
  if (g->opset >= 11 && cv && (cv->dt != x->dt || glow_value_numel(cv) < 1))
    return glow_node_error(g, n, "constant_value must be one element of the data's type");
  return 0;
}

static int infer_pad(glow_graph *g, glow_node *n) {
  pad_plan p;
  const glow_value *x = glow_in(g, n, 0);
  int64_t dims[GLOW_MAX_RANK];
  if (glow_t_check_movable(g, n, x) || pad_get(g, n, &p))
    return -1;
  for (int d = 0; d < x->rank; d++) {
    dims[d] = x->dims[d] + p.begin[d] + p.end[d];
    int64_t kept = x->dims[d] + (p.begin[d] < 0 ? p.begin[d] : 0) + (p.end[d] < 0 ? p.end[d] : 0);
    if (p.mode != PAD_CONSTANT && kept <= 0 && dims[d] > 0)
      return glow_node_error(g, n, "axis %d: nothing is left to pad from after the negative pads", d);
  }
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  return 0;
}

/* Input position for output position o along an axis of n elements, or -1 for the constant.
 * Negative pads crop first and the others pad what is left (ORT's order; it matters for wrap). */
static int64_t pad_source(int mode, int64_t o, int64_t begin, int64_t end, int64_t n) {
  int64_t lo = begin < 0 ? -begin : 0, len = n - lo - (end < 0 ? -end : 0);
  int64_t i = o - (begin > 0 ? begin : 0);
  if (i >= 0 && i < len)
    return lo + i;
  switch (mode) {
  case PAD_EDGE:
    return lo + (i < 0 ? 0 : len - 1);
  case PAD_WRAP:
    return lo + ((i % len) + len) % len;
  case PAD_REFLECT:
    if (len == 1)
      return lo;
    while (i < 0 || i >= len)
      i = i < 0 ? -i : 2 * (len - 1) - i;
    return lo + i;
  default:
    return -1;
  }
}

static int eval_pad(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  pad_plan p;
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t c[GLOW_MAX_RANK];
  if (pad_get(g, n, &p))
    return -1;
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, c);
    int64_t si = 0;
    for (int d = 0; d < o->rank && si >= 0; d++) {
      int64_t s = pad_source(p.mode, c[d], p.begin[d], p.end[d], x->dims[d]);
      si = s < 0 ? -1 : si * x->dims[d] + s;
    }
    if (si >= 0)
      glow_t_copy_elem(o->dt, outs[0], i, ins[0], si);
    else if (g->opset >= 11 && glow_in(g, n, 2))
      glow_t_copy_elem(o->dt, outs[0], i, ins[2], 0);
    else if (glow_dtype_is_float(o->dt))
      glow_elem_set(o->dt, outs[0], i, p.value);
    else
      glow_elem_seti(o->dt, outs[0], i, (int64_t)p.value);
  }
  return 0;
}

static int lower_pad(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  pad_plan p;
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t xs[GLOW_MAX_RANK], *tab[GLOW_MAX_RANK];
  if (pad_get(g, n, &p))
    return -1;
  glow_dense_strides(x->rank, x->dims, xs);
  for (int d = 0; d < o->rank; d++) {
    tab[d] = glow_xmalloc(sizeof(int64_t) * (size_t)(o->dims[d] + 1));
    for (int64_t i = 0; i < o->dims[d]; i++) {
      int64_t s = pad_source(p.mode, i, p.begin[d], p.end[d], x->dims[d]);
      tab[d][i] = s < 0 ? -1 : s * xs[d];
    }
  }
  int fill = g->opset >= 11 && glow_in(g, n, 2) ? 2 : -1;
  int rc = glow_t_lower_table(g, n, kc, tab, fill, glow_t_bits_of(o->dt, p.value));
  for (int d = 0; d < o->rank; d++)
    free(tab[d]);
  return rc;
}

const glow_op_info glow_op_PAD = {"Pad", 1, 4, 1, 1, infer_pad, eval_pad, lower_pad};

/* ---- Compress (condition must be a constant: it decides the output shape) ---- */

typedef struct {
  int axis;      /* -1: the input is flattened */
  int64_t count; /* selected positions */
  int64_t *sel;  /* their indices along the axis (or in the flat input) */
} compress_plan;

static int compress_get(const glow_graph *g, const glow_node *n, compress_plan *c) {
  const glow_value *x = glow_in(g, n, 0), *cond = glow_in(g, n, 1);
  const glow_attr *a = glow_attr_find(n, "axis");
  c->axis = -1;
  c->sel = NULL;
  if (a && (c->axis = glow_norm_axis(g, n, a->i, x->rank)) < 0)
    return -1;
  int64_t limit = c->axis < 0 ? glow_value_numel(x) : x->dims[c->axis], k = glow_value_numel(cond);
  if (cond->rank != 1)
    return glow_node_error(g, n, "the condition must be 1-D");
  if (k > INT32_MAX)
    return glow_node_error(g, n, "the condition is too long");
  double *v = glow_xmalloc(sizeof(double) * (size_t)(k + 1));
  int got = glow_t_need_const_nums(g, n, 1, "the condition", v, (int)k);
  c->sel = glow_xmalloc(sizeof(int64_t) * (size_t)(k + 1));
  c->count = 0;
  for (int64_t i = 0; i < got; i++)
    if (v[i] != 0) {
      if (i >= limit)
        got = glow_node_error(g, n, "the condition selects position %lld of an axis of %lld", (long long)i,
                              (long long)limit);
      else
        c->sel[c->count++] = i;
    }
  free(v);
  if (got < 0) {
    free(c->sel);
    c->sel = NULL;
    return -1;
  }
  return 0;
}

static int infer_compress(glow_graph *g, glow_node *n) {
  compress_plan c;
  const glow_value *x = glow_in(g, n, 0);
  int64_t dims[GLOW_MAX_RANK];
  if (glow_t_check_movable(g, n, x) || compress_get(g, n, &c))
    return -1;
  for (int d = 0; d < x->rank; d++)
    dims[d] = d == c.axis ? c.count : x->dims[d];
  if (c.axis < 0)
    dims[0] = c.count;
  glow_value_set_shape(glow_out(g, n, 0), x->dt, c.axis < 0 ? 1 : x->rank, dims);
  free(c.sel);
  return 0;
}

static int eval_compress(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  compress_plan c;
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t oc[GLOW_MAX_RANK];
  if (compress_get(g, n, &c))
    return -1;
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    if (c.axis < 0) {
      glow_t_copy_elem(o->dt, outs[0], i, ins[0], c.sel[i]);
      continue;
    }
    glow_t_unravel(i, o->rank, o->dims, oc);
    oc[c.axis] = c.sel[oc[c.axis]];
    int64_t si = 0;
    for (int d = 0; d < x->rank; d++)
      si = si * x->dims[d] + oc[d];
    glow_t_copy_elem(o->dt, outs[0], i, ins[0], si);
  }
  free(c.sel);
  return 0;
}

static int lower_compress(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  compress_plan c;
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t xs[GLOW_MAX_RANK], *tab[GLOW_MAX_RANK];
  if (compress_get(g, n, &c))
    return -1;
  glow_dense_strides(x->rank, x->dims, xs);
  for (int d = 0; d < o->rank; d++) {
    tab[d] = glow_xmalloc(sizeof(int64_t) * (size_t)(o->dims[d] + 1));
    for (int64_t i = 0; i < o->dims[d]; i++)
      tab[d][i] = c.axis < 0 ? c.sel[i] : (d == c.axis ? c.sel[i] : i) * xs[d];
  }
  int rc = glow_t_lower_table(g, n, kc, tab, -1, 0);
  for (int d = 0; d < o->rank; d++)
    free(tab[d]);
  free(c.sel);
  return rc;
}

const glow_op_info glow_op_COMPRESS = {"Compress", 2, 2, 1, 1, infer_compress, eval_compress, lower_compress};
