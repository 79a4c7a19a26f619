/* TFLite's slicing family as ONNX's (opset 13: Slice, Split and Pad take
 * their arguments as inputs): STRIDED_SLICE (every mask, negative strides,
 * offset), SLICE, SPLIT, SPLIT_V, REVERSE_V2 (a Slice of step -1), PAD, PADV2
 * and MIRROR_PAD (SYMMETRIC as a Gather of mirrored positions, which ONNX's
 * Pad lacks). Begins, sizes, paddings and axes must be constants. Each runs in
 * its input's layout, its axes remapped, unless it changes the rank. Any
 * element type: quantized tensors keep their scale and zero point, and pad
 * with the zero point, as TFLite does. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "importer/tflite.h"

/* Options fields (tflite.fbs). */
enum { SS_BEGIN_MASK = 0, SS_END_MASK = 1, SS_ELLIPSIS_MASK = 2, SS_NEW_AXIS_MASK = 3, SS_SHRINK_MASK = 4,
       SS_OFFSET = 5 };
enum { SPLIT_NUM = 0 };
enum { MIRROR_MODE = 0 };
enum { MIRROR_REFLECT = 0, MIRROR_SYMMETRIC = 1 };

/* Input k's tensor, or NULL after an error when it is omitted. */
static const glow_tfl_tensor *need(glow_tfl *c, const glow_tfl_op *op, int k) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
  if (!t)
    glow_tfl_err(c, op, "input %d is omitted; this operator needs it", k);
  return t;
}

/* A Slice of x along axes[n] (already in x's layout) into y; 0, or -1 after an error. */
static int slice(glow_tfl *c, const glow_tfl_op *op, const char *what, int x, int n, const int64_t *starts,
                 const int64_t *ends, const int64_t *axes, const int64_t *steps, int y) {
  int in[5] = {x, glow_tfl_const_ints(c, op, "starts", n, starts), glow_tfl_const_ints(c, op, "ends", n, ends),
               glow_tfl_const_ints(c, op, "axes", n, axes), glow_tfl_const_ints(c, op, "steps", n, steps)};
  if (in[1] < 0 || in[2] < 0 || in[3] < 0 || in[4] < 0)
    return -1;
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_SLICE, what, 5, in, 1, &y));
}

/* ---- STRIDED_SLICE ---- */

typedef struct {
  int64_t start[GLOW_MAX_RANK], end[GLOW_MAX_RANK], step[GLOW_MAX_RANK]; /* per input axis, for ONNX */
  int64_t out[GLOW_MAX_RANK];                                           /* the output's shape */
  int rank_out, reshape;                                                /* reshape: shrunk or new axes */
} ss_plan;

/* Axis d of extent dim sliced by spec (b, e, s) with its mask bits, as TFLite's kernel
 * does: begin and end count from the end when negative, clamp to the axis, give way to
 * the masks; with offset, end counts from begin. Returns the length taken. */
static int64_t ss_axis(ss_plan *p, int d, int64_t dim, int64_t b, int64_t e, int64_t s, int bmask, int emask,
                       int offset) {
  int64_t wide = 2 * dim + 2; /* beyond it every value clamps alike: bounding them first keeps the sums in range */
  b = b < -wide ? -wide : b > wide ? wide : b;
  e = e < -wide ? -wide : e > wide ? wide : e;
  s = s < -dim - 1 ? -dim - 1 : s > dim + 1 ? dim + 1 : s;
  b += b < 0 ? dim : 0;
  b = s > 0 ? (b < 0 ? 0 : b > dim ? dim : b) : (b < -1 ? -1 : b > dim - 1 ? dim - 1 : b);
  if (bmask)
    b = s > 0 ? 0 : dim - 1;
  e += offset ? b : 0;
  e += e < 0 ? dim : 0;
  e = s > 0 ? (e < 0 ? 0 : e > dim ? dim : e) : (e < -1 ? -1 : e > dim - 1 ? dim - 1 : e);
  if (emask)
    e = s > 0 ? dim : -1;
  int64_t len = s > 0 ? (e - b + s - 1) / s : (b - e - s - 1) / -s;
  if (len <= 0) {
    p->start[d] = p->end[d] = 0;
    p->step[d] = 1;
    return 0;
  }
  p->start[d] = b;
  p->end[d] = s < 0 && e == -1 ? -dim - 1 : e; /* ONNX reads end -1 as the last element */
  p->step[d] = s;
  return len;
}

/* Appends an axis of extent n to the output's shape; -1 after an error. */
static int ss_out(glow_tfl *c, const glow_tfl_op *op, ss_plan *p, int64_t n) {
  if (p->rank_out == GLOW_MAX_RANK)
    return glow_tfl_err(c, op, "makes an output of more than %d axes", GLOW_MAX_RANK);
  p->out[p->rank_out++] = n;
  return 0;
}

/* The dense plan of the sparse spec: an ellipsis stands for the axes no other entry
 * takes, a new axis takes none, a shrunk one keeps one element and is dropped. */
static int ss_plan_make(glow_tfl *c, const glow_tfl_op *op, const glow_tfl_tensor *x, ss_plan *p) {
  int64_t b[GLOW_MAX_RANK + 8], e[GLOW_MAX_RANK + 8], s[GLOW_MAX_RANK + 8];
  const int cap = GLOW_MAX_RANK + 8;
  int n = glow_tfl_in_ints(c, op, 1, b, cap), ne = n < 0 ? n : glow_tfl_in_ints(c, op, 2, e, cap);
  int ns = ne < 0 ? ne : glow_tfl_in_ints(c, op, 3, s, cap);
  if (ns < 0)
    return -1;
  if (ne != n || ns != n)
    return glow_tfl_err(c, op, "has %d begins, %d ends and %d strides; they must be as many", n, ne, ns);
  const glow_fb_table *o = &op->opts;
  int64_t bm = glow_fb_int(o, SS_BEGIN_MASK, 4, 0), em = glow_fb_int(o, SS_END_MASK, 4, 0);
  int64_t ell = glow_fb_int(o, SS_ELLIPSIS_MASK, 4, 0), nam = glow_fb_int(o, SS_NEW_AXIS_MASK, 4, 0);
  int64_t shr = glow_fb_int(o, SS_SHRINK_MASK, 4, 0);
  int offset = glow_fb_int(o, SS_OFFSET, 1, 0) != 0;
  ell &= n < 63 ? ((int64_t)1 << n) - 1 : -1;
  if (ell & (ell - 1))
    return glow_tfl_err(c, op, "has ellipsis_mask %lld; at most one entry may be an ellipsis", (long long)ell);
  int taking = 0; /* entries that take an input axis */
  for (int i = 0; i < n; i++)
    taking += !((ell | nam) >> i & 1);
  if (taking > x->rank)
    return glow_tfl_err(c, op, "slices %d axes of an input of rank %d", taking, x->rank);
  int d = 0;
  p->rank_out = 0;
  p->reshape = 0;
  for (int i = 0; i <= n; i++) {
    int last = i == n;
    if (last || (ell >> i & 1)) { /* the ellipsis, or the axes after the last entry */
      for (int k = last ? x->rank - d : x->rank - taking; k > 0; k--, d++) {
        p->start[d] = 0, p->end[d] = x->dims[d], p->step[d] = 1;
        if (ss_out(c, op, p, x->dims[d]))
          return -1;
      }
      continue;
    }
    if (nam >> i & 1) {
      p->reshape = 1;
      if (ss_out(c, op, p, 1))
        return -1;
      continue;
    }
    if (!s[i])
      return glow_tfl_err(c, op, "has stride 0 in entry %d; strides must not be 0", i);
    int64_t dim = x->dims[d];
    if (shr >> i & 1) { /* one element at begin (TFLite: begin_mask still applies) */
      int64_t at = (bm >> i & 1) ? (s[i] > 0 ? 0 : dim - 1) : b[i] < 0 ? b[i] + dim : b[i];
      if (at < 0 || at >= dim)
        return glow_tfl_err(c, op, "takes element %lld of axis %d, which has %lld", (long long)b[i], d, (long long)dim);
      p->start[d] = at, p->end[d] = at + 1, p->step[d] = 1;
      p->reshape = 1;
    } else if (ss_out(c, op, p, ss_axis(p, d, dim, b[i], e[i], s[i], bm >> i & 1, em >> i & 1, offset))) {
      return -1;
    }
    d++;
  }
  return 0;
}

static int emit_strided_slice(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  ss_plan p;
  if (!x || ss_plan_make(c, op, x, &p))
    return -1;
  int layout = p.reshape ? GLOW_TFL_NHWC : glow_tfl_follow(c, op);
  int64_t axes[GLOW_MAX_RANK];
  for (int d = 0; d < x->rank; d++)
    axes[d] = glow_tfl_axis(d, x->rank, layout);
  int in = glow_tfl_in(c, op, 0, layout);
  if (in < 0)
    return -1;
  int y = p.reshape ? glow_tfl_tmp(c, op, "slice") : glow_tfl_out(c, op, 0, layout);
  if (slice(c, op, p.reshape ? "slice" : NULL, in, x->rank, p.start, p.end, axes, p.step, y))
    return -1;
  if (!p.reshape)
    return 0;
  int r[2] = {y, glow_tfl_const_ints(c, op, "shape", p.rank_out, p.out)};
  if (r[1] < 0)
    return -1;
  int out = glow_tfl_out(c, op, 0, GLOW_TFL_NHWC);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_RESHAPE, NULL, 2, r, 1, &out));
}

/* ---- SLICE ---- */

/* begin (input 1) and size (input 2, -1: to the end), both inside the input. */
static int emit_slice(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  int64_t b[GLOW_MAX_RANK], size[GLOW_MAX_RANK], e[GLOW_MAX_RANK], axes[GLOW_MAX_RANK], steps[GLOW_MAX_RANK];
  int n = x ? glow_tfl_in_ints(c, op, 1, b, GLOW_MAX_RANK) : -1;
  int ns = n < 0 ? n : glow_tfl_in_ints(c, op, 2, size, GLOW_MAX_RANK);
  if (ns < 0)
    return -1;
  if (n != x->rank || ns != n)
    return glow_tfl_err(c, op, "has %d begins and %d sizes for an input of rank %d; it needs one of each per axis", n,
                        ns, x->rank);
  int layout = glow_tfl_follow(c, op);
  for (int d = 0; d < n; d++) {
    int64_t dim = x->dims[d];
    if (b[d] < 0 || b[d] > dim || size[d] < -1 || (size[d] >= 0 && size[d] > dim - b[d]))
      return glow_tfl_err(c, op, "takes %lld elements from %lld of axis %d, which has %lld", (long long)size[d],
                          (long long)b[d], d, (long long)dim);
    e[d] = size[d] < 0 ? dim : b[d] + size[d];
    axes[d] = glow_tfl_axis(d, n, layout);
    steps[d] = 1;
  }
  int in = glow_tfl_in(c, op, 0, layout);
  if (in < 0)
    return -1;
  return slice(c, op, NULL, in, n, b, e, axes, steps, glow_tfl_out(c, op, 0, layout));
}

/* ---- SPLIT, SPLIT_V ---- */

/* sizes[nout] of axis `axis` (extent dim), one of them -1 for the rest, resolved in place. */
static int split_sizes(glow_tfl *c, const glow_tfl_op *op, int axis, int64_t dim, int64_t *sizes) {
  int64_t sum = 0;
  int rest = -1;
  for (int k = 0; k < op->nout; k++) {
    if (sizes[k] == -1 && rest < 0)
      rest = k;
    else if (sizes[k] < 0)
      return glow_tfl_err(c, op, "has size %lld; sizes are 0 or more, and one of them may be -1", (long long)sizes[k]);
    else
      sum += sizes[k];
  }
  if (rest >= 0 && sum <= dim)
    sizes[rest] = dim - sum;
  else if (sum != dim)
    return glow_tfl_err(c, op, "has sizes adding up to %lld for axis %d of extent %lld", (long long)sum, axis,
                        (long long)dim);
  return 0;
}

/* Split input `data` along the axis in input `axis_in` into sizes[nout] (NULL: equal parts). */
static int split(glow_tfl *c, const glow_tfl_op *op, int data, int axis_in, int64_t *sizes) {
  const glow_tfl_tensor *x = need(c, op, data);
  int64_t a[2];
  int n = x ? glow_tfl_in_ints(c, op, axis_in, a, 2) : -1;
  if (n < 0)
    return -1;
  if (n != 1 || a[0] < -x->rank || a[0] >= x->rank)
    return glow_tfl_err(c, op, "has %s %lld in input %d; it takes one axis of the input's %d", n == 1 ? "axis" : "axes",
                        (long long)(n ? a[0] : 0), axis_in, x->rank);
  int axis = (int)(a[0] < 0 ? a[0] + x->rank : a[0]);
  if (sizes ? split_sizes(c, op, axis, x->dims[axis], sizes) : 0)
    return -1;
  if (!sizes && x->dims[axis] % op->nout)
    return glow_tfl_err(c, op, "splits axis %d of extent %lld into %d equal parts", axis, (long long)x->dims[axis],
                        op->nout);
  int layout = glow_tfl_follow(c, op);
  int in[2] = {glow_tfl_in(c, op, data, layout), sizes ? glow_tfl_const_ints(c, op, "split", op->nout, sizes) : -1};
  if (in[0] < 0 || (sizes && in[1] < 0))
    return -1;
  int *out = glow_xmalloc(sizeof(int) * (size_t)op->nout);
  for (int k = 0; k < op->nout; k++)
    out[k] = glow_tfl_out(c, op, k, layout);
  int node = glow_tfl_node(c, op, GLOW_OP_SPLIT, NULL, sizes ? 2 : 1, in, op->nout, out);
  free(out);
  glow_tfl_attr_int(c, node, "axis", glow_tfl_axis(axis, x->rank, layout));
  return glow_tfl_infer(c, node);
}

/* The axis is input 0, the data input 1; num_splits equal parts. */
static int emit_split(glow_tfl *c, const glow_tfl_op *op) {
  int64_t num = glow_fb_int(&op->opts, SPLIT_NUM, 4, op->nout);
  if (num != op->nout)
    return glow_tfl_err(c, op, "has num_splits %lld but %d outputs", (long long)num, op->nout);
  return split(c, op, 1, 0, NULL);
}

/* size_splits is input 1, the axis input 2. */
static int emit_split_v(glow_tfl *c, const glow_tfl_op *op) {
  int64_t *sizes = glow_xmalloc(sizeof(int64_t) * (size_t)(op->nout + 1));
  int n = glow_tfl_in_ints(c, op, 1, sizes, op->nout + 1), rc = -1;
  if (n >= 0 && n != op->nout)
    glow_tfl_err(c, op, "has %d sizes for %d outputs", n, op->nout);
  else if (n >= 0)
    rc = split(c, op, 0, 2, sizes);
  free(sizes);
  return rc;
}

/* ---- REVERSE_V2 ---- */

/* Each axis in input 1 read from its end with step -1. */
static int emit_reverse(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  int64_t a[GLOW_MAX_RANK + 1], starts[GLOW_MAX_RANK], ends[GLOW_MAX_RANK], axes[GLOW_MAX_RANK], steps[GLOW_MAX_RANK];
  int n = x ? glow_tfl_in_ints(c, op, 1, a, GLOW_MAX_RANK + 1) : -1;
  if (n < 0)
    return -1;
  int layout = glow_tfl_follow(c, op), seen = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] < -x->rank || a[i] >= x->rank)
      return glow_tfl_err(c, op, "reverses axis %lld of an input of rank %d", (long long)a[i], x->rank);
    int d = (int)(a[i] < 0 ? a[i] + x->rank : a[i]);
    if (seen >> d & 1)
      return glow_tfl_err(c, op, "reverses axis %d twice", d);
    seen |= 1 << d;
    starts[i] = x->dims[d] - 1;
    ends[i] = -x->dims[d] - 1; /* before the first element */
    axes[i] = glow_tfl_axis(d, x->rank, layout);
    steps[i] = -1;
  }
  int in = glow_tfl_in(c, op, 0, layout);
  if (in < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  if (n)
    return slice(c, op, NULL, in, n, starts, ends, axes, steps, y);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_IDENTITY, NULL, 1, &in, 1, &y));
}

/* ---- PAD, PADV2, MIRROR_PAD ---- */

/* paddings (input 1, rank x 2) into begin[] and end[] of x's axes in `layout`; -1 after an error. */
static int paddings(glow_tfl *c, const glow_tfl_op *op, const glow_tfl_tensor *x, int layout, int64_t *pads) {
  int64_t p[2 * GLOW_MAX_RANK];
  int n = glow_tfl_in_ints(c, op, 1, p, 2 * GLOW_MAX_RANK), r = x->rank;
  if (n < 0)
    return -1;
  if (n != 2 * r)
    return glow_tfl_err(c, op, "has %d paddings; an input of rank %d needs %d x 2", n, r, r);
  for (int d = 0; d < r; d++) {
    if (p[2 * d] < 0 || p[2 * d + 1] < 0 || p[2 * d] > INT32_MAX || p[2 * d + 1] > INT32_MAX)
      return glow_tfl_err(c, op, "pads axis %d by %lld and %lld; paddings are 0 to %d", d, (long long)p[2 * d],
                          (long long)p[2 * d + 1], INT32_MAX);
    int a = glow_tfl_axis(d, r, layout);
    pads[a] = p[2 * d];
    pads[r + a] = p[2 * d + 1];
  }
  return 0;
}

/* The pad value: PADV2's input 2, else 0, which for a quantized tensor is its zero point;
 * -2 for ONNX's default (0), -1 after an error. */
static int pad_value(glow_tfl *c, const glow_tfl_op *op, const glow_tfl_tensor *x) {
  if (op->nin > 2 && op->in[2] >= 0)
    return glow_tfl_in(c, op, 2, GLOW_TFL_NHWC);
  const glow_tfl_tensor *y = glow_tfl_tensor_out(c, op, 0);
  if (!y->nq || glow_dtype_is_float(x->dt))
    return -2; /* none: ONNX's 0 */
  int64_t raw = 0;
  glow_elem_seti(x->dt, &raw, 0, y->zero[0]);
  return glow_tfl_const(c, op, "zero_point", x->dt, 0, NULL, &raw);
}

static int emit_pad(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  int64_t pads[2 * GLOW_MAX_RANK];
  if (!x)
    return -1;
  int layout = glow_tfl_follow(c, op);
  if (paddings(c, op, x, layout, pads))
    return -1;
  int in[3] = {glow_tfl_in(c, op, 0, layout), glow_tfl_const_ints(c, op, "pads", 2 * x->rank, pads),
               pad_value(c, op, x)};
  if (in[0] < 0 || in[1] < 0 || in[2] == -1)
    return -1;
  int y = glow_tfl_out(c, op, 0, layout);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_PAD, NULL, in[2] >= 0 ? 3 : 2, in, 1, &y));
}

/* Gather along `axis` of positions o - before mirrored into [0, dim): SYMMETRIC repeats
 * the edge, as no ONNX Pad mode does. */
static int mirror_axis(glow_tfl *c, const glow_tfl_op *op, int x, int axis, int64_t dim, int64_t before,
                       int64_t after, int y) {
  int64_t n = dim + before + after, *idx = glow_xmalloc(sizeof(int64_t) * (size_t)n);
  for (int64_t o = 0; o < n; o++) {
    int64_t i = o - before;
    idx[o] = i < 0 ? -1 - i : i >= dim ? 2 * dim - 1 - i : i;
  }
  char what[32];
  snprintf(what, sizeof what, "axis%d", axis);
  int in[2] = {x, glow_tfl_const(c, op, what, GLOW_DT_I64, 1, &n, idx)};
  free(idx);
  if (in[1] < 0)
    return -1;
  int node = glow_tfl_node(c, op, GLOW_OP_GATHER, what, 2, in, 1, &y);
  glow_tfl_attr_int(c, node, "axis", axis);
  return glow_tfl_infer(c, node);
}

/* REFLECT as ONNX's reflect; SYMMETRIC one Gather per padded axis. TFLite bounds both
 * paddings by the extent (less one for REFLECT). */
static int emit_mirror_pad(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *x = need(c, op, 0);
  int64_t mode = glow_fb_int(&op->opts, MIRROR_MODE, 1, MIRROR_REFLECT), pads[2 * GLOW_MAX_RANK], dims[GLOW_MAX_RANK];
  if (!x)
    return -1;
  if (mode != MIRROR_REFLECT && mode != MIRROR_SYMMETRIC)
    return glow_tfl_err(c, op, "has mode %lld; MIRROR_PAD's are REFLECT (0) and SYMMETRIC (1)", (long long)mode);
  int layout = glow_tfl_follow(c, op), r = x->rank, last = -1;
  if (paddings(c, op, x, layout, pads))
    return -1;
  for (int d = 0; d < r; d++) {
    dims[glow_tfl_axis(d, r, layout)] = x->dims[d];
    int64_t most = x->dims[d] - (mode == MIRROR_REFLECT);
    int a = glow_tfl_axis(d, r, layout);
    if (pads[a] > most || pads[r + a] > most)
      return glow_tfl_err(c, op, "pads axis %d of extent %lld by %lld and %lld; %s padding is at most %lld", d,
                          (long long)x->dims[d], (long long)pads[a], (long long)pads[r + a],
                          mode == MIRROR_REFLECT ? "REFLECT" : "SYMMETRIC", (long long)most);
  }
  for (int a = 0; a < r; a++)
    if (pads[a] || pads[r + a])
      last = a;
  int v = glow_tfl_in(c, op, 0, layout);
  if (v < 0)
    return -1;
  if (last < 0 || mode == MIRROR_REFLECT) {
    int in[2] = {v, glow_tfl_const_ints(c, op, "pads", 2 * r, pads)}, y = glow_tfl_out(c, op, 0, layout);
    int node = glow_tfl_node(c, op, GLOW_OP_PAD, NULL, 2, in, 1, &y);
    glow_tfl_attr_string(c, node, "mode", "reflect");
    return in[1] < 0 ? -1 : glow_tfl_infer(c, node);
  }
  for (int a = 0; a <= last; a++) {
    if (!pads[a] && !pads[r + a])
      continue;
    char what[32];
    snprintf(what, sizeof what, "axis%d", a);
    int y = a == last ? glow_tfl_out(c, op, 0, layout) : glow_tfl_tmp(c, op, what);
    if (mirror_axis(c, op, v, a, dims[a], pads[a], pads[r + a], y))
      return -1;
    v = y;
  }
  return 0;
}

const glow_tfl_op_info glow_tfl_ops_slice[] = {
    {.code = 34, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_pad}, /* PAD */
    {.code = 45, .min_in = 4, .max_in = 4, .min_out = 1, .max_out = 1, .emit = emit_strided_slice}, /* STRIDED_SLICE */
    {.code = 49, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = INT_MAX, .emit = emit_split}, /* SPLIT */
    {.code = 60, .min_in = 2, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_pad}, /* PADV2 */
    {.code = 65, .min_in = 3, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_slice}, /* SLICE */
    {.code = 100, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_mirror_pad}, /* MIRROR_PAD */
    {.code = 102, .min_in = 3, .max_in = 3, .min_out = 1, .max_out = INT_MAX, .emit = emit_split_v}, /* SPLIT_V */
    {.code = 105, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_reverse}, /* REVERSE_V2 */
    {.code = -1},
};
