/* Transpose, DepthToSpace, SpaceToDepth, Expand, Tile: each output element
 * is one input element, so each lowers to a strided copy over a view of the
 * output whose input strides encode the op. */
#include <string.h>

#include "ops/tensor-util.h"

static int64_t ravel(int rank, const int64_t *dims, const int64_t *coord) {
  int64_t i = 0;
  for (int d = 0; d < rank; d++)
    i = i * dims[d] + coord[d];
  return i;
}

/* ---- Transpose ---- */

static int transpose_perm(const glow_graph *g, const glow_node *n, int64_t *perm) {
  const glow_value *x = glow_in(g, n, 0);
  const int64_t *p;
  int k = glow_attr_ints(n, "perm", &p), seen[GLOW_MAX_RANK] = {0};
  if (k < 0) {
    for (int d = 0; d < x->rank; d++)
      perm[d] = x->rank - 1 - d;
    return 0;
  }
  if (k != x->rank)
    return glow_node_error(g, n, "perm has %d entries for an input of rank %d", k, x->rank);
  for (int d = 0; d < k; d++) {
    if (p[d] < 0 || p[d] >= k || seen[p[d]]++)
      return glow_node_error(g, n, "perm is not a permutation of 0..%d", k - 1);
    perm[d] = p[d];
  }
  return 0;
}

static int infer_transpose(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t perm[GLOW_MAX_RANK], dims[GLOW_MAX_RANK];
  if (transpose_perm(g, n, perm))
    return -1;
  for (int d = 0; d < x->rank; d++)
    dims[d] = x->dims[perm[d]];
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  return 0;
}

static int eval_transpose(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t perm[GLOW_MAX_RANK], oc[GLOW_MAX_RANK], ic[GLOW_MAX_RANK];
  if (transpose_perm(g, n, perm))
    return -1;
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, oc);
    for (int d = 0; d < o->rank; d++)
      ic[perm[d]] = oc[d];
    glow_t_copy_elem(o->dt, outs[0], i, ins[0], ravel(x->rank, x->dims, ic));
  }
  return 0;
}

static int lower_transpose(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t perm[GLOW_MAX_RANK], xs[GLOW_MAX_RANK], st[GLOW_MAX_RANK];
  if (transpose_perm(g, n, perm))
    return -1;
  glow_dense_strides(x->rank, x->dims, xs);
  for (int d = 0; d < o->rank; d++)
    st[d] = xs[perm[d]];
  return glow_t_lower_strided(g, n, kc, o->rank, o->dims, st, 0);
}

const glow_op_info glow_op_TRANSPOSE = {"Transpose", 1, 1, 1, 1, infer_transpose, eval_transpose, lower_transpose};

/* ---- DepthToSpace, SpaceToDepth (NCHW) ---- */

static int block_args(const glow_graph *g, const glow_node *n, int64_t *b, int *crd) {
  const glow_value *x = glow_in(g, n, 0);
  *b = glow_attr_int(n, "blocksize", 0);
  if (*b <= 0)
    return glow_node_error(g, n, "blocksize must be a positive integer");
  if (x->rank != 4)
    return glow_node_error(g, n, "the input must have rank 4 (NCHW), not %d", x->rank);
  *crd = 0;
  if (n->op == GLOW_OP_DEPTH_TO_SPACE) {
    const char *mode = glow_attr_string(n, "mode", "DCR");
    if (strcmp(mode, "DCR") && strcmp(mode, "CRD"))
      return glow_node_error(g, n, "mode '%s' is not supported (DCR or CRD)", mode);
    *crd = !strcmp(mode, "CRD");
    if (x->dims[1] % (*b * *b))
      return glow_node_error(g, n, "channels (%lld) are not a multiple of blocksize^2", (long long)x->dims[1]);
  } else if (x->dims[2] % *b || x->dims[3] % *b) {
    return glow_node_error(g, n, "height and width must be multiples of blocksize %lld", (long long)*b);
  }
  return 0;
}

static int infer_depth_space(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t b, d[4];
  int crd;
  if (block_args(g, n, &b, &crd))
    return -1;
  int up = n->op == GLOW_OP_DEPTH_TO_SPACE;
  d[0] = x->dims[0];
  d[1] = up ? x->dims[1] / (b * b) : x->dims[1] * b * b;
  d[2] = up ? x->dims[2] * b : x->dims[2] / b;
  d[3] = up ? x->dims[3] * b : x->dims[3] / b;
  glow_value_set_shape(glow_out(g, n, 0), x->dt, 4, d);
  return 0;
}

static int eval_depth_space(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t b, oc[4], ic[4];
  int crd;
  if (block_args(g, n, &b, &crd))
    return -1;
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, 4, o->dims, oc);
    ic[0] = oc[0];
    if (n->op == GLOW_OP_DEPTH_TO_SPACE) {
      int64_t by = oc[2] % b, bx = oc[3] % b;
      ic[1] = crd ? (oc[1] * b + by) * b + bx : (by * b + bx) * o->dims[1] + oc[1];
      ic[2] = oc[2] / b;
      ic[3] = oc[3] / b;
    } else {
      int64_t c = oc[1] % x->dims[1], blk = oc[1] / x->dims[1];
      ic[1] = c;
      ic[2] = oc[2] * b + blk / b;
      ic[3] = oc[3] * b + blk % b;
    }
    glow_t_copy_elem(o->dt, outs[0], i, ins[0], ravel(4, x->dims, ic));
  }
  return 0;
}

static int lower_depth_space(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t b, C = x->dims[1], H = x->dims[2], W = x->dims[3];
  int crd;
  if (block_args(g, n, &b, &crd))
    return -1;
  if (n->op == GLOW_OP_DEPTH_TO_SPACE) { /* output viewed as [N, C/b^2, H, b, W, b] */
    int64_t c2 = C / (b * b);
    int64_t dims[6] = {x->dims[0], c2, H, b, W, b};
    int64_t dcr[6] = {C * H * W, H * W, W, b * c2 * H * W, 1, c2 * H * W};
    int64_t crdst[6] = {C * H * W, b * b * H * W, W, b * H * W, 1, H * W};
    return glow_t_lower_strided(g, n, kc, 6, dims, crd ? crdst : dcr, 0);
  }
  /* output viewed as [N, b, b, C, H/b, W/b] */
  int64_t dims[6] = {x->dims[0], b, b, C, H / b, W / b};
  int64_t st[6] = {C * H * W, W, 1, H * W, b * W, b};
  return glow_t_lower_strided(g, n, kc, 6, dims, st, 0);
}

const glow_op_info glow_op_DEPTH_TO_SPACE = {"DepthToSpace",   1, 1, 1, 1, infer_depth_space, eval_depth_space,
                                             lower_depth_space};
const glow_op_info glow_op_SPACE_TO_DEPTH = {"SpaceToDepth",   1, 1, 1, 1, infer_depth_space, eval_depth_space,
                                             lower_depth_space};

/* ---- Expand ---- */

static int infer_expand(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t shape[GLOW_MAX_RANK], dims[GLOW_MAX_RANK];
  int k = glow_need_const_ints(g, n, 1, "the target shape", shape, GLOW_MAX_RANK);
  if (k < 0)
    return -1;
  int r = k > x->rank ? k : x->rank;
  for (int d = 0; d < r; d++) {
    int xd = d - (r - x->rank), sd = d - (r - k);
    int64_t a = xd >= 0 ? x->dims[xd] : 1, b = sd >= 0 ? shape[sd] : 1;
    if (a != b && a != 1 && b != 1)
      return glow_node_error(g, n, "input dimension %lld cannot be expanded to %lld", (long long)a, (long long)b);
    dims[d] = a == 1 ? b : a;
  }
  glow_value_set_shape(glow_out(g, n, 0), x->dt, r, dims);
  return 0;
}

static int eval_expand(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t oc[GLOW_MAX_RANK], ic[GLOW_MAX_RANK];
  int lead = o->rank - x->rank;
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, oc);
    for (int d = 0; d < x->rank; d++)
      ic[d] = x->dims[d] == 1 ? 0 : oc[d + lead];
    glow_t_copy_elem(o->dt, outs[0], i, ins[0], ravel(x->rank, x->dims, ic));
  }
  return 0;
}

static int lower_expand(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *o = glow_out(g, n, 0);
  int64_t st[GLOW_MAX_RANK];
  glow_broadcast_strides(glow_in(g, n, 0), o->rank, o->dims, st);
  return glow_t_lower_strided(g, n, kc, o->rank, o->dims, st, 0);
}

const glow_op_info glow_op_EXPAND = {"Expand", 2, 2, 1, 1, infer_expand, eval_expand, lower_expand};

/* ---- Tile ---- */

static int tile_repeats(const glow_graph *g, const glow_node *n, int64_t *rep) {
  const glow_value *x = glow_in(g, n, 0);
  int k = glow_need_const_ints(g, n, 1, "the repeats", rep, GLOW_MAX_RANK);
  if (k < 0)
    return -1;
  if (k != x->rank)
    return glow_node_error(g, n, "repeats has %d entries for an input of rank %d", k, x->rank);
  for (int d = 0; d < k; d++)
    if (rep[d] < 0)
      return glow_node_error(g, n, "repeats must not be negative");
  return 0;
}

static int infer_tile(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t rep[GLOW_MAX_RANK], dims[GLOW_MAX_RANK];
  if (tile_repeats(g, n, rep))
    return -1;
  for (int d = 0; d < x->rank; d++)
    dims[d] = x->dims[d] * rep[d];
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  return 0;
}

static int eval_tile(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *o = glow_out(g, n, 0);
  int64_t oc[GLOW_MAX_RANK], ic[GLOW_MAX_RANK];
  for (int64_t i = 0, e = glow_value_numel(o); i < e; i++) {
    glow_t_unravel(i, o->rank, o->dims, oc);
    for (int d = 0; d < x->rank; d++)
      ic[d] = oc[d] % x->dims[d];
    glow_t_copy_elem(o->dt, outs[0], i, ins[0], ravel(x->rank, x->dims, ic));
  }
  return 0;
}

static int lower_tile(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t rep[GLOW_MAX_RANK], xs[GLOW_MAX_RANK], dims[GLOW_T_MAX_VIEW], st[GLOW_T_MAX_VIEW];
  if (tile_repeats(g, n, rep))
    return -1;
  glow_dense_strides(x->rank, x->dims, xs);
  for (int d = 0; d < x->rank; d++) { /* output viewed as [rep0, d0, rep1, d1, ...] */
    dims[2 * d] = rep[d];
    st[2 * d] = 0;
    dims[2 * d + 1] = x->dims[d];
    st[2 * d + 1] = xs[d];
  }
  return glow_t_lower_strided(g, n, kc, 2 * x->rank, dims, st, 0);
}

const glow_op_info glow_op_TILE = {"Tile", 2, 2, 1, 1, infer_tile, eval_tile, lower_tile};
