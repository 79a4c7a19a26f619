/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: input [N, C, d1...], integer target [N, d1...],
 * optional class weights [C]; reduction none, sum or mean (weighted mean over the targets not ignored). */
#include <math.h>
#include <string.h>

#include "ops/op-util.h"

typedef struct {
  int64_t N, C, D, reduction, has_weight, has_ii, ii;
} loss_dims;

static int loss_get(const glow_graph *g, const glow_node *n, loss_dims *d) {
  const glow_value *x = glow_in(g, n, 0), *t = glow_in(g, n, 1), *w = glow_in(g, n, 2);
  const char *red = glow_attr_string(n, "reduction", "mean");
  if (!strcmp(red, "none"))
    d->reduction = 0;
  else if (!strcmp(red, "sum"))
    d->reduction = 1;
  else if (!strcmp(red, "mean"))
    d->reduction = 2;
  else
    return glow_node_error(g, n, "reduction '%s' is not supported (none, sum or mean)", red);
  if (x->dt != GLOW_DT_F32 && x->dt != GLOW_DT_F64)
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(x->dt));
  if (t->dt != GLOW_DT_I32 && t->dt != GLOW_DT_I64)
    return glow_node_error(g, n, "target type %s is not supported (int32 or int64)", glow_dtype_name(t->dt));
  if (x->rank < 2 || t->rank != x->rank - 1)
    return glow_node_error(g, n, "input must be [N, C, d1...] and target [N, d1...] (ranks %d and %d)", x->rank,
                           t->rank);
  d->N = x->dims[0];
  d->C = x->dims[1];
  d->D = 1;
  for (int i = 0; i < t->rank; i++) {
    if (t->dims[i] != x->dims[i ? i + 1 : 0])
      return glow_node_error(g, n, "target dimension %d is %lld, input has %lld", i, (long long)t->dims[i],
                             (long long)x->dims[i ? i + 1 : 0]);
    if (i)
      d->D *= t->dims[i];
  }
  d->has_weight = w != NULL;
  if (w && (w->rank != 1 || w->dims[0] != d->C || w->dt != x->dt))
    return glow_node_error(g, n, "weight must be a %s vector of C=%lld elements", glow_dtype_name(x->dt),
                           (long long)d->C);
  d->has_ii = glow_attr_find(n, "ignore_index") != NULL;
  d->ii = glow_attr_int(n, "ignore_index", 0);
  return 0;
}

static int infer_loss(glow_graph *g, glow_node *n) {
  loss_dims d;
  if (loss_get(g, n, &d))
    return -1;
  const glow_value *x = glow_in(g, n, 0), *t = glow_in(g, n, 1);
  glow_value_set_shape(glow_out(g, n, 0), x->dt, d.reduction ? 0 : t->rank, t->dims);
  if (glow_out(g, n, 1))
    glow_value_set_shape(glow_out(g, n, 1), x->dt, x->rank, x->dims);
  return 0;
}

static int eval_loss(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  loss_dims d;
  if (loss_get(g, n, &d))
    return -1;
  glow_dtype dt = glow_in(g, n, 0)->dt, tt = glow_in(g, n, 1)->dt;
  int sce = n->op == GLOW_OP_SCE_LOSS;
  double total = 0, wsum = 0;
  for (int64_t i = 0; i < d.N; i++)
    for (int64_t j = 0; j < d.D; j++) {
      int64_t base = i * d.C * d.D + j, t = glow_elem_geti(tt, ins[1], i * d.D + j);
      double mx = -INFINITY, sum = 0, lse = 0;
      if (sce) {
        for (int64_t c = 0; c < d.C; c++)
          mx = fmax(mx, glow_elem_get(dt, ins[0], base + c * d.D));
        for (int64_t c = 0; c < d.C; c++)
          sum += exp(glow_elem_get(dt, ins[0], base + c * d.D) - mx);
        lse = mx + log(sum);
        if (outs[1])
          for (int64_t c = 0; c < d.C; c++)
            glow_elem_set(dt, outs[1], base + c * d.D, glow_elem_get(dt, ins[0], base + c * d.D) - lse);
      }
      double l = 0, w = 0;
      if (!(d.has_ii && t == d.ii)) {
        if (t < 0 || t >= d.C)
          return glow_node_error(g, n, "target value %lld is outside [0, %lld)", (long long)t, (long long)d.C);
        w = d.has_weight ? glow_elem_get(dt, ins[2], t) : 1;
        l = -w * (glow_elem_get(dt, ins[0], base + t * d.D) - lse);
      }
      if (d.reduction == 0)
        glow_elem_set(dt, outs[0], i * d.D + j, l);
      total += l;
      wsum += w;
    }
  if (d.reduction)
    glow_elem_set(dt, outs[0], 0, d.reduction == 2 ? total / wsum : total);
  return 0;
}

static int lower_loss(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  loss_dims d;
  if (loss_get(g, n, &d))
    return -1;
  int sce = n->op == GLOW_OP_SCE_LOSS;
  glow_kcall_init(kc, "glow_k_%s_%s_%s", sce ? "sce_loss" : "nll_loss", glow_dtype_suffix(glow_in(g, n, 0)->dt),
                  glow_dtype_suffix(glow_in(g, n, 1)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  if (sce)
    glow_kcall_tensor(kc, n->nout > 1 ? n->out[1] : -1);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_loss a = {.N = d.N, .C = d.C, .D = d.D, .reduction = d.reduction, .has_weight = d.has_weight,
                     .has_ignore_index = d.has_ii, .ignore_index = d.ii};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_NLL_LOSS = {"NegativeLogLikelihoodLoss", 2, 3, 1, 1, infer_loss, eval_loss, lower_loss};
const glow_op_info glow_op_SCE_LOSS = {"SoftmaxCrossEntropyLoss", 2, 3, 1, 2, infer_loss, eval_loss, lower_loss};
