/* TFLite's spatial rearrangements as ONNX's: RESIZE_BILINEAR and
 * RESIZE_NEAREST_NEIGHBOR as Resize, SPACE_TO_DEPTH and DEPTH_TO_SPACE (TF's
 * order is ONNX's DCR) in NCHW; SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND as
 * Pad, Reshape, Transpose and Slice in the model's layout, over the spatial
 * axes 1..M that the block shape names. */
#include "importer/tflite.h"

/* Options fields (tflite.fbs). */
enum { BILINEAR_ALIGN_CORNERS = 2, BILINEAR_HALF_PIXEL = 3, NEAREST_ALIGN_CORNERS = 0, NEAREST_HALF_PIXEL = 1 };
enum { BLOCK_SIZE = 0 };

/* TF's source coordinates in ONNX's terms. Bilinear: y*in/out is "asymmetric", (y+0.5)*in/out-0.5
 * "half_pixel", align_corners ONNX's own. Nearest: floor(y*in/out) is asymmetric with floor,
 * floor((y+0.5)*in/out) is half_pixel rounding halves up, and align_corners rounds halves away
 * from zero (up, for coordinates that are never negative). */
static int resize(glow_tfl *c, const glow_tfl_op *op, int linear) {
  int align = glow_fb_int(&op->opts, linear ? BILINEAR_ALIGN_CORNERS : NEAREST_ALIGN_CORNERS, 1, 0) != 0;
  int half = glow_fb_int(&op->opts, linear ? BILINEAR_HALF_PIXEL : NEAREST_HALF_PIXEL, 1, 0) != 0;
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  if (align && half)
    return glow_tfl_err(c, op, "has both align_corners and half_pixel_centers, which TensorFlow refuses");
  if (x->rank != 4)
    return glow_tfl_err(c, op, "has an input of rank %d; it must be 4-D (NHWC)", x->rank);
  int64_t hw[2];
  int n = glow_tfl_in_ints(c, op, 1, hw, 2);
  if (n < 0)
    return -1;
  if (n != 2 || hw[0] < 1 || hw[1] < 1)
    return glow_tfl_err(c, op, "must have a size (input 1) of two positive values: the new height and width");
  int64_t sizes[4] = {x->dims[0], x->dims[3], hw[0], hw[1]};
  int in[4] = {glow_tfl_in(c, op, 0, GLOW_TFL_NCHW), -1, -1, glow_tfl_const_ints(c, op, "sizes", 4, sizes)};
  if (in[0] < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NCHW);
  int node = glow_tfl_node(c, op, GLOW_OP_RESIZE, NULL, 4, in, 1, &y);
  glow_tfl_attr_string(c, node, "mode", linear ? "linear" : "nearest");
  glow_tfl_attr_string(c, node, "coordinate_transformation_mode",
                       align ? "align_corners" : half ? "half_pixel" : "asymmetric");
  if (!linear)
    glow_tfl_attr_string(c, node, "nearest_mode", align || half ? "round_prefer_ceil" : "floor");
  return glow_tfl_infer(c, node);
}

static int emit_resize_bilinear(glow_tfl *c, const glow_tfl_op *op) { return resize(c, op, 1); }
static int emit_resize_nearest(glow_tfl *c, const glow_tfl_op *op) { return resize(c, op, 0); }

static int block_move(glow_tfl *c, const glow_tfl_op *op, glow_op kind) {
  int64_t b = glow_fb_int(&op->opts, BLOCK_SIZE, 4, 0);
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  if (x->rank != 4)
    return glow_tfl_err(c, op, "has an input of rank %d; it must be 4-D (NHWC)", x->rank);
  if (b < 1)
    return glow_tfl_err(c, op, "has block size %lld; it must be 1 or more", (long long)b);
  int in = glow_tfl_in(c, op, 0, GLOW_TFL_NCHW);
  if (in < 0)
    return -1;
  int y = glow_tfl_out(c, op, 0, GLOW_TFL_NCHW);
  int node = glow_tfl_node(c, op, kind, NULL, 1, &in, 1, &y);
  glow_tfl_attr_int(c, node, "blocksize", b);
  if (kind == GLOW_OP_DEPTH_TO_SPACE)
    glow_tfl_attr_string(c, node, "mode", "DCR");
  return glow_tfl_infer(c, node);
}

static int emit_space_to_depth(glow_tfl *c, const glow_tfl_op *op) { return block_move(c, op, GLOW_OP_SPACE_TO_DEPTH); }
static int emit_depth_to_space(glow_tfl *c, const glow_tfl_op *op) { return block_move(c, op, GLOW_OP_DEPTH_TO_SPACE); }

/* The block shape (input 1, M values) and the paddings or crops (input 2, M x 2) of a
 * SPACE_TO_BATCH_ND or BATCH_TO_SPACE_ND on input 0; M, or -1 after an error. */
static int block_args(glow_tfl *c, const glow_tfl_op *op, int64_t *block, int64_t *edges) {
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  int m = glow_tfl_in_ints(c, op, 1, block, GLOW_MAX_RANK);
  if (m < 0)
    return -1;
  /* the input's rank plus M axes for the blocks must fit the IR's rank */
  if (m < 1 || x->rank < m + 1 || x->rank + m > GLOW_MAX_RANK)
    return glow_tfl_err(c, op, "has %d block sizes for an input of rank %d; it takes 1 or more, fewer than the rank, "
                        "and at most %d minus the rank", m, x->rank, GLOW_MAX_RANK);
  int n = glow_tfl_in_ints(c, op, 2, edges, 2 * GLOW_MAX_RANK);
  if (n < 0)
    return -1;
  if (n != 2 * m)
    return glow_tfl_err(c, op, "has %d values in input 2; it must be %d x 2 for %d block sizes", n, m, m);
  for (int i = 0; i < m; i++)
    if (block[i] < 1 || edges[2 * i] < 0 || edges[2 * i + 1] < 0)
      return glow_tfl_err(c, op, "has block size %lld and edges %lld, %lld on axis %d; blocks must be 1 or more and "
                          "edges 0 or more", (long long)block[i], (long long)edges[2 * i],
                          (long long)edges[2 * i + 1], i + 1);
  return m;
}

/* A node of `kind` on value `from`, writing output 0 when `last`, else a new temporary named
 * what; the node (set its attributes, then infer it). */
static int step(glow_tfl *c, const glow_tfl_op *op, glow_op kind, const char *what, int nin, const int *in,
                int last) {
  int y = last ? glow_tfl_out(c, op, 0, GLOW_TFL_NHWC) : glow_tfl_tmp(c, op, what);
  return glow_tfl_node(c, op, kind, last ? NULL : what, nin, in, 1, &y);
}

/* The value node `node` writes once inferred, or -1. */
static int done(glow_tfl *c, int node) { return glow_tfl_infer(c, node) ? -1 : c->g->nodes[node].out[0]; }

static int reshape(glow_tfl *c, const glow_tfl_op *op, int x, const char *what, int rank, const int64_t *dims,
                   int last) {
  int in[2] = {x, glow_tfl_const_ints(c, op, what, rank, dims)};
  return in[1] < 0 ? -1 : done(c, step(c, op, GLOW_OP_RESHAPE, what, 2, in, last));
}

static int transpose(glow_tfl *c, const glow_tfl_op *op, int x, int rank, const int64_t *perm, int last) {
  int node = step(c, op, GLOW_OP_TRANSPOSE, "transpose", 1, &x, last);
  glow_tfl_attr_ints(c, node, "perm", perm, rank);
  return done(c, node);
}

/* Pad the spatial axes, split each into (size / block, block), move the blocks in front of the
 * batch and merge them into it: batch index (b_1 ... b_M, n), TF's order. */
static int emit_space_to_batch(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, 0);
  int64_t block[GLOW_MAX_RANK], pad[2 * GLOW_MAX_RANK];
  int m = block_args(c, op, block, pad), r = t->rank, x = glow_tfl_in(c, op, 0, GLOW_TFL_NHWC);
  if (m < 0 || x < 0)
    return -1;
  int64_t pads[2 * GLOW_MAX_RANK] = {0}, split[2 * GLOW_MAX_RANK], perm[2 * GLOW_MAX_RANK], dims[GLOW_MAX_RANK];
  int padded = 0;
  split[0] = t->dims[0];
  dims[0] = t->dims[0];
  for (int i = 0; i < m; i++) {
    int64_t s = t->dims[1 + i] + pad[2 * i] + pad[2 * i + 1];
    if (s % block[i])
      return glow_tfl_err(c, op, "pads axis %d to %lld, which block size %lld does not divide", i + 1, (long long)s,
                          (long long)block[i]);
    pads[1 + i] = pad[2 * i];
    pads[r + 1 + i] = pad[2 * i + 1];
    padded |= pad[2 * i] || pad[2 * i + 1];
    split[1 + 2 * i] = s / block[i];
    split[2 + 2 * i] = block[i];
    perm[i] = 2 + 2 * i;
    perm[m + 1 + i] = 1 + 2 * i;
    dims[0] *= block[i];
    dims[1 + i] = s / block[i];
  }
  perm[m] = 0;
  for (int d = m + 1; d < r; d++) {
    split[m + d] = t->dims[d];
    perm[m + d] = m + d;
    dims[d] = t->dims[d];
  }
  if (padded) {
    int in[2] = {x, glow_tfl_const_ints(c, op, "pads", 2 * r, pads)};
    if (in[1] < 0 || (x = done(c, step(c, op, GLOW_OP_PAD, "pad", 2, in, 0))) < 0)
      return -1;
  }
  if ((x = reshape(c, op, x, "split", r + m, split, 0)) < 0 || (x = transpose(c, op, x, r + m, perm, 0)) < 0)
    return -1;
  return reshape(c, op, x, "shape", r, dims, 1) < 0 ? -1 : 0;
}

/* The inverse: split the batch into (b_1 ... b_M, n), interleave each block after its spatial
 * axis, merge the pairs and crop. */
static int emit_batch_to_space(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, 0);
  int64_t block[GLOW_MAX_RANK], crop[2 * GLOW_MAX_RANK];
  int m = block_args(c, op, block, crop), r = t->rank, x = glow_tfl_in(c, op, 0, GLOW_TFL_NHWC);
  if (m < 0 || x < 0)
    return -1;
  int64_t split[2 * GLOW_MAX_RANK], perm[2 * GLOW_MAX_RANK], dims[GLOW_MAX_RANK], nb = 1;
  int64_t starts[GLOW_MAX_RANK], ends[GLOW_MAX_RANK], axes[GLOW_MAX_RANK];
  int cropped = 0;
  for (int i = 0; i < m; i++)
    nb *= block[i];
  if (t->dims[0] % nb)
    return glow_tfl_err(c, op, "has a batch of %lld, which the blocks' %lld positions do not divide",
                        (long long)t->dims[0], (long long)nb);
  split[m] = t->dims[0] / nb;
  dims[0] = split[m];
  perm[0] = m;
  for (int i = 0; i < m; i++) {
    split[i] = block[i];
    split[m + 1 + i] = t->dims[1 + i];
    perm[1 + 2 * i] = m + 1 + i;
    perm[2 + 2 * i] = i;
    dims[1 + i] = t->dims[1 + i] * block[i];
    if (crop[2 * i] + crop[2 * i + 1] > dims[1 + i])
      return glow_tfl_err(c, op, "crops %lld and %lld from axis %d of size %lld", (long long)crop[2 * i],
                          (long long)crop[2 * i + 1], i + 1, (long long)dims[1 + i]);
    starts[i] = crop[2 * i];
    ends[i] = dims[1 + i] - crop[2 * i + 1];
    axes[i] = 1 + i;
    cropped |= crop[2 * i] || crop[2 * i + 1];
  }
  for (int d = m + 1; d < r; d++) {
    split[m + d] = t->dims[d];
    perm[m + d] = m + d;
    dims[d] = t->dims[d];
  }
  if ((x = reshape(c, op, x, "split", r + m, split, 0)) < 0 || (x = transpose(c, op, x, r + m, perm, 0)) < 0 ||
      (x = reshape(c, op, x, "merge", r, dims, !cropped)) < 0)
    return -1;
  if (!cropped)
    return 0;
  int in[4] = {x, glow_tfl_const_ints(c, op, "starts", m, starts), glow_tfl_const_ints(c, op, "ends", m, ends),
               glow_tfl_const_ints(c, op, "axes", m, axes)};
  if (in[1] < 0 || in[2] < 0 || in[3] < 0)
    return -1;
  return done(c, step(c, op, GLOW_OP_SLICE, "crop", 4, in, 1)) < 0 ? -1 : 0;
}

const glow_tfl_op_info glow_tfl_ops_spatial[] = {
    {.code = 5, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_depth_to_space},   /* DEPTH_TO_SPACE */
    {.code = 23, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_resize_bilinear}, /* RESIZE_BILINEAR */
    {.code = 26, .min_in = 1, .max_in = 1, .min_out = 1, .max_out = 1, .emit = emit_space_to_depth},  /* SPACE_TO_DEPTH */
    {.code = 37, .min_in = 3, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_batch_to_space},  /* BATCH_TO_SPACE_ND */
    {.code = 38, .min_in = 3, .max_in = 3, .min_out = 1, .max_out = 1, .emit = emit_space_to_batch},  /* SPACE_TO_BATCH_ND */
    {.code = 97, .min_in = 2, .max_in = 2, .min_out = 1, .max_out = 1, .emit = emit_resize_nearest},  /* RESIZE_NEAREST_NEIGHBOR */
    {.code = -1},
};
