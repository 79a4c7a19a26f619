/* Matrix products: Gemm, MatMul (numpy semantics), MatMulInteger and QLinearMatMul. All lower
 * to one strided, batched kernel family:
 *   Y[b][m][n] = alpha * sum_k A[b][m][k] * B[b][k][n] + beta * C[b][m][n]
 * params: glow_abi_mm (kernel-abi.h); MatMulInteger's and QLinearMatMul's
 * kernels read zero-point modes in place of alpha and beta. */
#include <stdlib.h>
#include <string.h>

#include "ops/nn-util.h"
#include "ops/quant-util.h"

#define MM_BATCH GLOW_NN_MM_BATCH

typedef glow_nn_mm mm_params;

void glow_nn_mm_init(mm_params *q) {
  memset(q, 0, sizeof *q);
  for (int i = 0; i < MM_BATCH; i++)
    q->bd[i] = 1;
  q->alpha = 1;
}

_Static_assert(sizeof(((glow_abi_mm *)0)->bd) == MM_BATCH * sizeof(int64_t), "the kernels' batch axes");

/* The kernels' parameters (kernel-abi.h), alpha and beta (or zero-point modes) left 0. */
static glow_abi_mm mm_abi(const mm_params *q) {
  glow_abi_mm a = {.M = q->M, .N = q->N, .K = q->K, .ams = q->ams, .aks = q->aks, .bks = q->bks, .bns = q->bns,
                   .cms = q->cms, .cns = q->cns};
  for (int i = 0; i < MM_BATCH; i++) {
    a.bd[i] = q->bd[i];
    a.abs[i] = q->abs[i];
    a.bbs[i] = q->bbs[i];
    a.cbs[i] = q->cbs[i];
  }
  return a;
}

static int mm_next(const mm_params *q, int64_t *bi) {
  for (int i = MM_BATCH - 1; i >= 0; i--) {
    if (++bi[i] < q->bd[i])
      return 1;
    bi[i] = 0;
  }
  return 0;
}

/* Reference for the strided form in double; `integer`: exactly, in int64, with
 * zero points za/zb subtracted (per row of A / per column of B when they hold
 * more than one value). */
typedef struct {
  glow_dtype ydt, adt, bdt;
  void *y;
  const void *a, *b, *c;
  int integer;
  const glow_value *za, *zb;
  const void *zad, *zbd;
} mm_ref_io;

static void mm_ref(const mm_params *q, const mm_ref_io *io) {
  int64_t yi = 0, bi[MM_BATCH] = {0};
  do {
    int64_t ao = 0, bo = 0, co = 0;
    for (int i = 0; i < MM_BATCH; i++) {
      ao += bi[i] * q->abs[i];
      bo += bi[i] * q->bbs[i];
      co += bi[i] * q->cbs[i];
    }
    for (int64_t m = 0; m < q->M; m++)
      for (int64_t n = 0; n < q->N; n++, yi++) {
        if (io->integer) {
          int64_t acc = 0;
          int64_t az = io->za ? glow_elem_geti(io->za->dt, io->zad, glow_value_numel(io->za) > 1 ? m : 0) : 0;
          int64_t bz = io->zb ? glow_elem_geti(io->zb->dt, io->zbd, glow_value_numel(io->zb) > 1 ? n : 0) : 0;
          for (int64_t k = 0; k < q->K; k++)
            acc += (glow_elem_geti(io->adt, io->a, ao + m * q->ams + k * q->aks) - az) *
                   (glow_elem_geti(io->bdt, io->b, bo + k * q->bks + n * q->bns) - bz);
          glow_elem_seti(io->ydt, io->y, yi, acc);
          continue;
        }
        double acc = 0;
        for (int64_t k = 0; k < q->K; k++)
          acc += glow_elem_get(io->adt, io->a, ao + m * q->ams + k * q->aks) *
                 glow_elem_get(io->bdt, io->b, bo + k * q->bks + n * q->bns);
        double cv = io->c ? glow_elem_get(io->ydt, io->c, co + m * q->cms + n * q->cns) : 0;
        glow_elem_set(io->ydt, io->y, yi, q->alpha * acc + q->beta * cv);
      }
  } while (mm_next(q, bi));
}

static int float_or_int(glow_dtype dt) {
  return dt == GLOW_DT_F32 || dt == GLOW_DT_F64 || dt == GLOW_DT_I32 || dt == GLOW_DT_I64 || dt == GLOW_DT_U32 ||
         dt == GLOW_DT_U64;
}

/* ---- Gemm: Y = alpha * op(A) * op(B) + beta * C, C broadcast to [M, N] ---- */

static int gemm_get(const glow_graph *g, const glow_node *n, mm_params *q) {
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 1), *c = glow_in(g, n, 2);
  glow_nn_mm_init(q);
  if (a->dt != b->dt || (c && c->dt != a->dt) || !float_or_int(a->dt))
    return glow_node_error(g, n,
                           "input types %s/%s are not supported (float, double, int32, int64, uint32, uint64; "
                           "the same for A, B and C)",
                           glow_dtype_name(a->dt), glow_dtype_name(b->dt));
  if (a->rank != 2 || b->rank != 2)
    return glow_node_error(g, n, "A and B must be 2-D (got ranks %d and %d)", a->rank, b->rank);
  int64_t ta = glow_attr_int(n, "transA", 0), tb = glow_attr_int(n, "transB", 0);
  q->alpha = glow_attr_float(n, "alpha", 1.0);
  q->beta = glow_attr_float(n, "beta", 1.0);
  q->M = ta ? a->dims[1] : a->dims[0];
  q->K = ta ? a->dims[0] : a->dims[1];
  q->N = tb ? b->dims[0] : b->dims[1];
  q->ams = ta ? 1 : q->K;
  q->aks = ta ? q->M : 1;
  q->bks = tb ? 1 : q->N;
  q->bns = tb ? q->K : 1;
  int64_t kb = tb ? b->dims[1] : b->dims[0];
  if (kb != q->K)
    return glow_node_error(g, n, "inner dimensions differ: A gives K=%lld, B gives K=%lld", (long long)q->K,
                           (long long)kb);
  if (c) {
    int64_t cd[2] = {1, 1};
    if (c->rank > 2)
      return glow_node_error(g, n, "C must have rank <= 2");
    for (int i = 0; i < c->rank; i++)
      cd[2 - c->rank + i] = c->dims[i];
    if ((cd[0] != 1 && cd[0] != q->M) || (cd[1] != 1 && cd[1] != q->N))
      return glow_node_error(g, n, "C cannot be broadcast to [%lld,%lld]", (long long)q->M, (long long)q->N);
    q->cms = cd[0] == 1 ? 0 : cd[1];
    q->cns = cd[1] == 1 ? 0 : 1;
  }
  return 0;
}

static int infer_gemm(glow_graph *g, glow_node *n) {
  mm_params q;
  if (gemm_get(g, n, &q))
    return -1;
  int64_t od[2] = {q.M, q.N};
  glow_value_set_shape(glow_out(g, n, 0), glow_in(g, n, 0)->dt, 2, od);
  return 0;
}

static int eval_gemm(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  mm_params q;
  if (gemm_get(g, n, &q))
    return -1;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  mm_ref_io io = {dt, dt, dt, outs[0], ins[0], ins[1], glow_in(g, n, 2) ? ins[2] : NULL, 0, NULL, NULL, NULL, NULL};
  mm_ref(&q, &io);
  return 0;
}

/* Batch axes over which B and C repeat and A's rows run on evenly become rows
 * (X[s, 1, K] x W[K, N] is one [s, K] x [K, N] product, not s of one row). */
static void mm_fold_batch(mm_params *q) {
  for (int i = MM_BATCH - 1; i >= 0; i--) {
    if (q->bd[i] == 1)
      continue;
    if (q->bbs[i] || q->cbs[i] || q->cms || q->abs[i] != q->M * q->ams)
      return;
    q->M *= q->bd[i];
    q->bd[i] = 1;
    q->abs[i] = 0;
  }
}

void glow_nn_mm_lower(const mm_params *qin, glow_dtype dt, int y, int a, int b, int c, glow_kcall *kc) {
  mm_params q = *qin;
  mm_fold_batch(&q);
  glow_kcall_init(kc, "glow_k_matmul_%s", glow_dtype_suffix(dt));
  glow_kcall_tensor(kc, y);
  glow_kcall_tensor(kc, a);
  glow_kcall_tensor(kc, b);
  glow_kcall_tensor(kc, c);
  glow_abi_matmul abi = {.mm = mm_abi(&q), .epi = {GLOW_EPI_NONE, 0, 0}};
  abi.mm.alpha = glow_f2p(q.alpha);
  abi.mm.beta = glow_f2p(q.beta);
  if (dt == GLOW_DT_F32) /* no epilogue (kernels/epilogue.h); fused 1x1 convs set one */
    glow_kcall_tensor(kc, -1);
  glow_kcall_abi(kc, &abi, dt == GLOW_DT_F32 ? sizeof abi : offsetof(glow_abi_matmul, epi));
}

static int lower_mm(const glow_graph *g, const glow_node *n, const mm_params *q, int cin, glow_kcall *kc) {
  glow_nn_mm_lower(q, glow_out(g, n, 0)->dt, n->out[0], n->in[0], n->in[1], cin >= 0 && cin < n->nin ? n->in[cin] : -1,
                   kc);
  return 0;
}

static int lower_gemm(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  mm_params q;
  if (gemm_get(g, n, &q))
    return -1;
  return lower_mm(g, n, &q, 2, kc);
}

const glow_op_info glow_op_GEMM = {"Gemm", 2, 3, 1, 1, infer_gemm, eval_gemm, lower_gemm};

/* ---- MatMul and MatMulInteger: numpy matmul, batch axes broadcast ---- */

/* Shapes of A and B (1-D operands promoted as numpy does) into q and the
 * output shape into od/orank. */
/* QLinearMatMul's B after passes/pack-weights.c (glow.b_layout = 1): a K x N
 * int8 matrix as NB x ceil(K/4) x 16 x 4 (zero padded; NB = ceil(N/16) rounded up to
 * GLOW_QMM_TILE_BLOCKS), N in glow.b_cols. */
static int b_packed(const glow_node *n) {
  return n->op == GLOW_OP_QLINEAR_MAT_MUL && glow_attr_int(n, "glow.b_layout", 0) == 1;
}

static int matmul_get(const glow_graph *g, const glow_node *n, mm_params *q, int64_t *od, int *orank) {
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, n->op == GLOW_OP_QLINEAR_MAT_MUL ? 3 : 1);
  char s1[128], s2[128];
  glow_nn_mm_init(q);
  glow_value logical;
  if (b_packed(n)) { /* the K x N matrix it holds */
    logical = *b;
    logical.rank = 2;
    logical.dims[0] = a->rank ? a->dims[a->rank - 1] : 0;
    logical.dims[1] = glow_attr_int(n, "glow.b_cols", 0);
    if (b->dt != GLOW_DT_I8 || b->rank != 3 || b->dims[0] != glow_qmm_packed_blocks(logical.dims[1]) ||
        b->dims[1] != (logical.dims[0] + 3) / 4 || b->dims[2] != 64)
      return glow_node_error(g, n, "packed B %s (int8) does not match A %s", glow_shape_str(b, s1, sizeof s1),
                             glow_shape_str(a, s2, sizeof s2));
    b = &logical;
  }
  if (a->rank < 1 || b->rank < 1)
    return glow_node_error(g, n, "A and B must have rank 1 or more");
  int ra = a->rank, rb = b->rank;
  q->M = ra > 1 ? a->dims[ra - 2] : 1;
  q->K = a->dims[ra - 1];
  int64_t kb = rb > 1 ? b->dims[rb - 2] : b->dims[0];
  q->N = rb > 1 ? b->dims[rb - 1] : 1;
  if (kb != q->K)
    return glow_node_error(g, n, "A %s and B %s: inner dimensions differ", glow_shape_str(a, s1, sizeof s1),
                           glow_shape_str(b, s2, sizeof s2));
  q->ams = q->K;
  q->aks = 1;
  q->bks = q->N;
  q->bns = 1;
  int na = ra > 2 ? ra - 2 : 0, nb = rb > 2 ? rb - 2 : 0, nbat = na > nb ? na : nb;
  int64_t sa = q->M * q->K, sb = q->K * q->N, bd[GLOW_MAX_RANK], as[GLOW_MAX_RANK], bs[GLOW_MAX_RANK];
  /* Batch axes from the innermost out, strides 0 where an operand broadcasts. */
  for (int i = nbat - 1; i >= 0; i--) {
    int ia = i - (nbat - na), ib = i - (nbat - nb);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return glow_node_error(g, n, "A %s and B %s: batch axes cannot be broadcast together",
                             glow_shape_str(a, s1, sizeof s1), glow_shape_str(b, s2, sizeof s2));
    bd[i] = da > db ? da : db;
    as[i] = da == 1 ? 0 : sa;
    bs[i] = db == 1 ? 0 : sb;
    sa *= da;
    sb *= db;
  }
  *orank = 0;
  for (int i = 0; i < nbat; i++)
    od[(*orank)++] = bd[i];
  if (ra > 1)
    od[(*orank)++] = q->M;
  if (rb > 1)
    od[(*orank)++] = q->N;
  /* The kernel's batch: axes of extent 1 dropped, at most MM_BATCH. */
  int k = 0;
  for (int i = 0; i < nbat; i++)
    if (bd[i] != 1)
      k++;
  if (k > MM_BATCH)
    return glow_node_error(g, n, "more than %d batch axes are not supported", MM_BATCH);
  for (int i = nbat - 1, j = MM_BATCH - 1; i >= 0; i--)
    if (bd[i] != 1) {
      q->bd[j] = bd[i];
      q->abs[j] = as[i];
      q->bbs[j--] = bs[i];
    }
  return 0;
}

static int infer_matmul(glow_graph *g, glow_node *n) {
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 1);
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if (a->dt != b->dt || !float_or_int(a->dt))
    return glow_node_error(g, n,
                           "input types %s/%s are not supported (float, double, int32, int64, uint32, uint64; "
                           "the same for A and B)",
                           glow_dtype_name(a->dt), glow_dtype_name(b->dt));
  if (matmul_get(g, n, &q, od, &r))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), a->dt, r, od);
  return 0;
}

static int eval_matmul(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if (matmul_get(g, n, &q, od, &r))
    return -1;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  mm_ref_io io = {dt, dt, dt, outs[0], ins[0], ins[1], NULL, 0, NULL, NULL, NULL, NULL};
  mm_ref(&q, &io);
  return 0;
}

static int lower_matmul(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if (matmul_get(g, n, &q, od, &r))
    return -1;
  return lower_mm(g, n, &q, -1, kc);
}

const glow_op_info glow_op_MAT_MUL = {"MatMul", 2, 2, 1, 1, infer_matmul, eval_matmul, lower_matmul};

static int infer_matmul_integer(glow_graph *g, glow_node *n) {
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 1);
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if ((a->dt != GLOW_DT_U8 && a->dt != GLOW_DT_I8) || (b->dt != GLOW_DT_U8 && b->dt != GLOW_DT_I8))
    return glow_node_error(g, n, "input types %s and %s are not supported (uint8 or int8)", glow_dtype_name(a->dt),
                           glow_dtype_name(b->dt));
  if (matmul_get(g, n, &q, od, &r))
    return -1;
  for (int i = 2; i < 4; i++) {
    const glow_value *z = glow_in(g, n, i);
    int64_t e = z ? glow_value_numel(z) : 1, per = i == 2 ? q.M : q.N;
    if (z && (z->dt != glow_in(g, n, i - 2)->dt || z->rank > 1 || (e != 1 && e != per)))
      return glow_node_error(g, n, "%s must be a %s scalar or a vector of %lld (one per %s)",
                             i == 2 ? "a_zero_point" : "b_zero_point", glow_dtype_name(glow_in(g, n, i - 2)->dt),
                             (long long)per, i == 2 ? "row of A" : "column of B");
  }
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_I32, r, od);
  return 0;
}

static int eval_matmul_integer(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if (matmul_get(g, n, &q, od, &r))
    return -1;
  mm_ref_io io = {GLOW_DT_I32,
                  glow_in(g, n, 0)->dt,
                  glow_in(g, n, 1)->dt,
                  outs[0],
                  ins[0],
                  ins[1],
                  NULL,
                  1,
                  glow_in(g, n, 2),
                  glow_in(g, n, 3),
                  glow_in(g, n, 2) ? ins[2] : NULL,
                  glow_in(g, n, 3) ? ins[3] : NULL};
  mm_ref(&q, &io);
  return 0;
}

static int lower_matmul_integer(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if (matmul_get(g, n, &q, od, &r))
    return -1;
  const glow_value *za = glow_in(g, n, 2), *zb = glow_in(g, n, 3);
  glow_kcall_init(kc, "glow_k_matmul_integer_%s_%s", glow_dtype_suffix(glow_in(g, n, 0)->dt),
                  glow_dtype_suffix(glow_in(g, n, 1)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 4; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_mm a = mm_abi(&q);
  a.za_row = za && glow_value_numel(za) > 1;
  a.zb_col = zb && glow_value_numel(zb) > 1;
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_MAT_MUL_INTEGER = {
    "MatMulInteger", 2, 4, 1, 1, infer_matmul_integer, eval_matmul_integer, lower_matmul_integer};

/* ---- QLinearMatMul: inputs a, a_scale, a_zero_point, b, b_scale,
 * b_zero_point, y_scale, y_zero_point and glowc's optional int32 bias B (one
 * per column of Y, at scale a_scale * b_scale: Gemm's C after the quantize pass,
 * as QLinearConv's B; ONNX's QLinearMatMul has 8 inputs); the a parameters may
 * hold one value per row of A (not with B), the b parameters one per column of
 * B. int32 sums (int64 when a, b and y are int16) of (a - a_zero_point) *
 * (b - b_zero_point), plus B, requantized as quant-util.h describes. ---- */

static int qmatmul_get(const glow_graph *g, const glow_node *n, mm_params *q, int64_t *od, int *orank) {
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 3);
  int i16 = a->dt == GLOW_DT_I16 && b->dt == GLOW_DT_I16;
  if (!i16 && (!glow_q_is_8bit(a->dt) || !glow_q_is_8bit(b->dt)))
    return glow_node_error(g, n, "input types %s and %s are not supported (uint8 or int8; or both int16)",
                           glow_dtype_name(a->dt), glow_dtype_name(b->dt));
  if (matmul_get(g, n, q, od, orank))
    return -1;
  if (!glow_in(g, n, 1) || !glow_in(g, n, 4) || !glow_in(g, n, 6))
    return glow_node_error(g, n, "a_scale, b_scale and y_scale are required");
  if (glow_q_check_param(g, n, 1, "a_scale", 1, GLOW_DT_UNDEF, q->M) ||
      glow_q_check_param(g, n, 2, "a_zero_point", 0, a->dt, q->M) ||
      glow_q_check_param(g, n, 4, "b_scale", 1, GLOW_DT_UNDEF, q->N) ||
      glow_q_check_param(g, n, 5, "b_zero_point", 0, b->dt, q->N) ||
      glow_q_check_param(g, n, 6, "y_scale", 1, GLOW_DT_UNDEF, 1) ||
      glow_q_check_param(g, n, 7, "y_zero_point", 0, i16 ? GLOW_DT_I16 : GLOW_DT_UNDEF, 1))
    return -1;
  if (i16 && !glow_in(g, n, 7))
    return glow_node_error(g, n, "y_zero_point is required with int16 inputs (it gives Y its type)");
  const glow_value *bias = glow_in(g, n, 8);
  if (bias && (bias->dt != GLOW_DT_I32 || bias->rank != 1 || bias->dims[0] != q->N))
    return glow_node_error(g, n, "B (input 8) must be an int32 vector of %lld elements", (long long)q->N);
  if (bias && glow_value_numel(glow_in(g, n, 1)) > 1)
    return glow_node_error(g, n, "B (input 8) needs one a_scale, not one per row");
  return 0;
}

static glow_dtype qmatmul_type(const glow_graph *g, const glow_node *n) {
  return glow_in(g, n, 7) ? glow_in(g, n, 7)->dt : GLOW_DT_U8;
}

static int infer_qlinear_matmul(glow_graph *g, glow_node *n) {
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if (qmatmul_get(g, n, &q, od, &r))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), qmatmul_type(g, n), r, od);
  return 0;
}

static int eval_qlinear_matmul(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if (qmatmul_get(g, n, &q, od, &r))
    return -1;
  const glow_value *y = glow_out(g, n, 0), *as = glow_in(g, n, 1), *bs = glow_in(g, n, 4), *yz = glow_in(g, n, 7);
  int64_t e = glow_value_numel(y);
  void *acc = glow_xmalloc(sizeof(int64_t) * (size_t)(e ? e : 1));
  int8_t *bstd = NULL; /* a packed B as K x N */
  if (b_packed(n)) {
    int64_t kq = (q.K + 3) / 4;
    const int8_t *bp = ins[3];
    bstd = glow_xmalloc((size_t)(q.K * q.N) + 1);
    for (int64_t k = 0; k < q.K; k++)
      for (int64_t c = 0; c < q.N; c++)
        bstd[k * q.N + c] = bp[((c / 16) * kq + k / 4) * 64 + c % 16 * 4 + k % 4];
  }
  /* 8 bits: the kernels' int32 sums (int64 narrowed); int16: int64 sums. */
  mm_ref_io io = {y->dt == GLOW_DT_I16 ? GLOW_DT_I64 : GLOW_DT_I32,
                  glow_in(g, n, 0)->dt,
                  glow_in(g, n, 3)->dt,
                  acc,
                  ins[0],
                  bstd ? bstd : ins[3],
                  NULL,
                  1,
                  glow_in(g, n, 2),
                  glow_in(g, n, 5),
                  glow_in(g, n, 2) ? ins[2] : NULL,
                  glow_in(g, n, 5) ? ins[5] : NULL};
  mm_ref(&q, &io);
  float ys = *(const float *)ins[6];
  int32_t zp = glow_q_zero(yz, yz ? ins[7] : NULL, 0), lo, hi;
  const int32_t *bias = glow_in(g, n, 8) ? ins[8] : NULL;
  glow_q_range(y->dt, &lo, &hi);
  for (int64_t i = 0; i < e; i++) {
    int64_t row = i / q.N % q.M, col = i % q.N;
    float mult = (glow_q_scale(as, ins[1], row) * glow_q_scale(bs, ins[4], col)) / ys;
    int64_t a = glow_elem_geti(io.ydt, acc, i) + (bias ? bias[col] : 0);
    if (io.ydt == GLOW_DT_I32) /* 8 bits: the kernels' int32 sum */
      a = (int32_t)a;
    glow_elem_seti(y->dt, outs[0], i, glow_q_saturate((float)a * mult, zp, lo, hi));
  }
  free(acc);
  free(bstd);
  return 0;
}

/* Tensors: Y, the 8 inputs, B (or none). Params: glow_abi_qmm (kernel-abi.h). */
static int lower_qlinear_matmul(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  mm_params q;
  int64_t od[GLOW_MAX_RANK];
  int r;
  if (qmatmul_get(g, n, &q, od, &r))
    return -1;
  const glow_value *as = glow_in(g, n, 1), *za = glow_in(g, n, 2), *bs = glow_in(g, n, 4), *zb = glow_in(g, n, 5);
  int a_row = glow_value_numel(as) > 1, za_row = za && glow_value_numel(za) > 1;
  if (!a_row && !za_row)
    mm_fold_batch(&q);
  glow_kcall_init(kc, "glow_k_qlinearmatmul%s", glow_in(g, n, 0)->dt == GLOW_DT_I16 ? "16" : "");
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 9; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_qmm a = {.mm = mm_abi(&q),
                    .as_row = a_row,
                    .bs_col = glow_value_numel(bs) > 1,
                    .signs = glow_q_sign_flags(glow_in(g, n, 0)->dt, glow_in(g, n, 3)->dt, qmatmul_type(g, n)),
                    .b_packed = b_packed(n)};
  a.mm.za_row = za_row;
  a.mm.zb_col = zb && glow_value_numel(zb) > 1;
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_QLINEAR_MAT_MUL = {
    "QLinearMatMul", 8, 9, 1, 1, infer_qlinear_matmul, eval_qlinear_matmul, lower_qlinear_matmul};
