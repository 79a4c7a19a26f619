/* ReverseSequence: along time_axis, the first sequence_lens[b] elements of
 * each batch entry b are reversed and the rest copied. Lengths are read at run
 * time; one outside [0, time] is clamped to it. */
#include "ops/tensor-util.h"

typedef struct {
  int time_axis;
  int64_t time, batch, inner;
} revseq_plan;

static int revseq_get(const glow_graph *g, const glow_node *n, revseq_plan *r) {
  const glow_value *x = glow_in(g, n, 0), *lens = glow_in(g, n, 1);
  int64_t ba = glow_attr_int(n, "batch_axis", 1), ta = glow_attr_int(n, "time_axis", 0);
  if (!((ba == 0 && ta == 1) || (ba == 1 && ta == 0)))
    return glow_node_error(g, n, "batch_axis and time_axis must be 0 and 1 in some order (got %lld and %lld)",
                           (long long)ba, (long long)ta);
  if (x->rank < 2)
    return glow_node_error(g, n, "the input must have rank >= 2, not %d", x->rank);
  if ((lens->dt != GLOW_DT_I64 && lens->dt != GLOW_DT_I32) || lens->rank != 1 || lens->dims[0] != x->dims[ba])
    return glow_node_error(g, n, "sequence_lens must be an int32 or int64 vector of the batch size (%lld)",
                           (long long)x->dims[ba]);
  r->time_axis = (int)ta;
  r->time = x->dims[ta];
  r->batch = x->dims[ba];
  r->inner = glow_extent(x, 2, x->rank);
  return glow_t_check_movable(g, n, x);
}

static int infer_revseq(glow_graph *g, glow_node *n) {
  revseq_plan r;
  if (revseq_get(g, n, &r))
    return -1;
  return glow_infer_same_as_input(g, n);
}

static int eval_revseq(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  revseq_plan r;
  const glow_value *x = glow_in(g, n, 0), *lens = glow_in(g, n, 1);
  if (revseq_get(g, n, &r))
    return -1;
  for (int64_t b = 0; b < r.batch; b++) {
    int64_t len = glow_elem_geti(lens->dt, ins[1], b);
    len = len < 0 ? 0 : len > r.time ? r.time : len;
    for (int64_t t = 0; t < r.time; t++) {
      int64_t s = t < len ? len - 1 - t : t;
      int64_t dst = r.time_axis == 0 ? t * r.batch + b : b * r.time + t;
      int64_t src = r.time_axis == 0 ? s * r.batch + b : b * r.time + s;
      for (int64_t i = 0; i < r.inner; i++)
        glow_t_copy_elem(x->dt, outs[0], dst * r.inner + i, ins[0], src * r.inner + i);
    }
  }
  return 0;
}

static int lower_revseq(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  revseq_plan r;
  if (revseq_get(g, n, &r))
    return -1;
  glow_t_kcall_by_size(kc, "reverse_sequence", glow_in(g, n, 0)->dt);
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_abi_reverse_sequence a = {.time = r.time, .batch = r.batch, .inner = r.inner, .time_axis = r.time_axis,
                                 .idt = glow_in(g, n, 1)->dt};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_REVERSE_SEQUENCE = {"ReverseSequence", 2, 2, 1, 1, infer_revseq, eval_revseq, lower_revseq};
