/* MaxUnpool: the inverse of MaxPool with indices. The output is zero except
 * at the flat positions the indices name (over the whole output tensor, as
 * MaxPool's Indices output counts), which take the input's values. The output
 * shape is output_shape (a compile-time constant) when given, else each
 * spatial axis is (in - 1) * stride - pads + kernel. */
#include <string.h>

#include "ops/tensor-util.h"

static int unpool_shape(const glow_graph *g, const glow_node *n, int64_t *dims) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1);
  int nsp = x->rank - 2;
  if (nsp < 1)
    return glow_node_error(g, n, "the input must have rank >= 3, not %d", x->rank);
  if ((iv->dt != GLOW_DT_I64 && iv->dt != GLOW_DT_I32) || iv->rank != x->rank ||
      glow_value_numel(iv) != glow_value_numel(x))
    return glow_node_error(g, n, "the indices must be int32 or int64, of the input's shape");
  if (glow_in(g, n, 2)) {
    int k = glow_need_const_ints(g, n, 2, "output_shape", dims, GLOW_MAX_RANK);
    if (k < 0)
      return -1;
    if (k != x->rank || dims[0] != x->dims[0] || dims[1] != x->dims[1])
      return glow_node_error(g, n, "output_shape must have %d values, starting with the input's N and C", x->rank);
    return glow_t_check_movable(g, n, x);
  }
  const int64_t *ks, *st, *pads;
  int nk = glow_attr_ints(n, "kernel_shape", &ks), ns = glow_attr_ints(n, "strides", &st);
  int np = glow_attr_ints(n, "pads", &pads);
  if (nk != nsp || (ns >= 0 && ns != nsp) || (np >= 0 && np != 2 * nsp))
    return glow_node_error(g, n, "kernel_shape (required), strides and pads must have one value per spatial axis "
                                 "(%d; pads twice that)", nsp);
  dims[0] = x->dims[0];
  dims[1] = x->dims[1];
  for (int i = 0; i < nsp; i++) {
    dims[2 + i] = (x->dims[2 + i] - 1) * (ns >= 0 ? st[i] : 1) + ks[i] - (np >= 0 ? pads[i] + pads[nsp + i] : 0);
    if (dims[2 + i] < 1)
      return glow_node_error(g, n, "spatial axis %d of the output would have %lld elements", i,
                             (long long)dims[2 + i]);
  }
  return glow_t_check_movable(g, n, x);
}

static int infer_unpool(glow_graph *g, glow_node *n) {
  int64_t dims[GLOW_MAX_RANK];
  if (unpool_shape(g, n, dims))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), glow_in(g, n, 0)->dt, glow_in(g, n, 0)->rank, dims);
  return 0;
}

static int eval_unpool(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *iv = glow_in(g, n, 1), *o = glow_out(g, n, 0);
  int64_t total = glow_value_numel(o);
  memset(outs[0], 0, glow_value_bytes(o));
  for (int64_t i = 0, e = glow_value_numel(x); i < e; i++) {
    int64_t k = glow_elem_geti(iv->dt, ins[1], i);
    if (k >= 0 && k < total)
      glow_t_copy_elem(x->dt, outs[0], k, ins[0], i);
  }
  return 0;
}

static int lower_unpool(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  glow_t_kcall_by_size(kc, "unpool", x->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_abi_unpool a = {.out_n = glow_value_numel(glow_out(g, n, 0)), .in_n = glow_value_numel(x),
                       .idt = glow_in(g, n, 1)->dt};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_MAX_UNPOOL = {"MaxUnpool", 2, 3, 1, 1, infer_unpool, eval_unpool, lower_unpool};
