/* Clip, PRelu and Dropout (inference). Kernels: targets/common/kernels/unary-clip.c. */
#include <string.h>

#include "ops/op-util.h"

static int numeric(glow_dtype dt) {
  return glow_dtype_is_float(dt) || glow_dtype_is_signed_int(dt) || glow_dtype_is_unsigned_int(dt);
}

/* -- Clip: bounds are attributes before opset 11, optional scalar inputs from 11. -- */

typedef struct {
  int mode[2]; /* 0: none, 1: known value, 2: a tensor known at run time */
  double f[2];
  int64_t i[2];
} clip_bounds;

static int clip_bounds_of(const glow_graph *g, const glow_node *n, clip_bounds *cb) {
  const glow_value *x = glow_in(g, n, 0);
  static const char *names[2] = {"min", "max"};
  memset(cb, 0, sizeof *cb);
  for (int k = 0; k < 2; k++) {
    if (g->opset < 11) {
      const glow_attr *a = glow_attr_find(n, names[k]);
      if (a && a->type != GLOW_ATTR_FLOAT)
        return glow_node_error(g, n, "attribute %s must be a float", names[k]);
      if (a) {
        cb->mode[k] = 1;
        cb->f[k] = a->f;
      }
      continue;
    }
    const glow_value *v = glow_in(g, n, 1 + k);
    if (!v)
      continue;
    if (v->dt != x->dt)
      return glow_node_error(g, n, "%s has type %s, the input %s", names[k], glow_dtype_name(v->dt),
                             glow_dtype_name(x->dt));
    if (glow_value_numel(v) != 1)
      return glow_node_error(g, n, "%s must be a scalar (it has %lld elements)", names[k],
                             (long long)glow_value_numel(v));
    cb->mode[k] = v->kind == GLOW_VAL_CONST ? 1 : 2;
    if (v->kind == GLOW_VAL_CONST) {
      cb->f[k] = glow_elem_get(v->dt, v->data, 0);
      cb->i[k] = glow_elem_geti(v->dt, v->data, 0);
    }
  }
  return 0;
}

static int infer_clip(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  clip_bounds cb;
  if (!numeric(x->dt))
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(x->dt));
  if (g->opset < 11 && n->nin > 1)
    return glow_node_error(g, n, "Clip before opset 11 takes 1 input, not %d", n->nin);
  if (g->opset >= 11 && (glow_attr_find(n, "min") || glow_attr_find(n, "max")))
    return glow_node_error(g, n, "attributes min and max are inputs from opset 11 (this model is opset %lld)",
                           (long long)g->opset);
  if (clip_bounds_of(g, n, &cb))
    return -1;
  return glow_infer_same_as_input(g, n);
}

static int eval_clip(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  clip_bounds cb;
  clip_bounds_of(g, n, &cb);
  for (int k = 0; k < 2; k++)
    if (cb.mode[k] == 2) { /* evaluation gets every input's data */
      cb.f[k] = glow_elem_get(x->dt, ins[1 + k], 0);
      cb.i[k] = glow_elem_geti(x->dt, ins[1 + k], 0);
    }
  for (int64_t i = 0, e = glow_value_numel(x); i < e; i++) {
    if (glow_dtype_is_float(x->dt)) {
      double v = glow_elem_get(x->dt, ins[0], i);
      v = cb.mode[0] && v < cb.f[0] ? cb.f[0] : v;
      v = cb.mode[1] && v > cb.f[1] ? cb.f[1] : v;
      glow_elem_set(x->dt, outs[0], i, v);
    } else if (glow_dtype_is_unsigned_int(x->dt)) {
      uint64_t v = (uint64_t)glow_elem_geti(x->dt, ins[0], i), lo = (uint64_t)cb.i[0], hi = (uint64_t)cb.i[1];
      v = cb.mode[0] && v < lo ? lo : v;
      v = cb.mode[1] && v > hi ? hi : v;
      glow_elem_seti(x->dt, outs[0], i, (int64_t)v);
    } else {
      int64_t v = glow_elem_geti(x->dt, ins[0], i);
      v = cb.mode[0] && v < cb.i[0] ? cb.i[0] : v;
      v = cb.mode[1] && v > cb.i[1] ? cb.i[1] : v;
      glow_elem_seti(x->dt, outs[0], i, v);
    }
  }
  return 0;
}

static int lower_clip(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  clip_bounds cb;
  if (clip_bounds_of(g, n, &cb))
    return -1;
  glow_kcall_init(kc, "glow_k_clip_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  for (int k = 0; k < 2; k++)
    glow_kcall_tensor(kc, cb.mode[k] == 2 ? n->in[1 + k] : -1);
  int f = glow_dtype_is_float(x->dt);
  glow_abi_clip a = {.n = glow_value_numel(x),
                     .min_mode = cb.mode[0],
                     .min = f ? glow_f2p(cb.f[0]) : cb.i[0],
                     .max_mode = cb.mode[1],
                     .max = f ? glow_f2p(cb.f[1]) : cb.i[1]};
  glow_kcall_abi(kc, &a, sizeof a);
  int64_t e = (int64_t)glow_dtype_size(x->dt), bytes[4] = {e, e, 0, 0}; /* parts: slices of the elements */
  glow_kcall_split(kc, GLOW_ABI_INDEX(glow_abi_clip, n), bytes);
  return 0;
}

const glow_op_info glow_op_CLIP = {"Clip", 1, 3, 1, 1, infer_clip, eval_clip, lower_clip};

/* -- PRelu: slope broadcast to x's shape (numpy rules, in one direction). -- */

static int infer_prelu(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0), *s = glow_in(g, n, 1);
  if (!numeric(x->dt))
    return glow_node_error(g, n, "input type %s is not supported", glow_dtype_name(x->dt));
  if (s->dt != x->dt)
    return glow_node_error(g, n, "slope has type %s, the input %s", glow_dtype_name(s->dt), glow_dtype_name(x->dt));
  int ok = s->rank <= x->rank;
  for (int d = 0; ok && d < s->rank; d++)
    ok = s->dims[d] == 1 || s->dims[d] == x->dims[x->rank - s->rank + d];
  if (!ok) {
    char s1[128], s2[128];
    return glow_node_error(g, n, "slope %s does not broadcast to the input %s", glow_shape_str(s, s1, sizeof s1),
                           glow_shape_str(x, s2, sizeof s2));
  }
  return glow_infer_same_as_input(g, n);
}

static int eval_prelu(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t ss[GLOW_MAX_RANK], idx[GLOW_MAX_RANK] = {0};
  glow_broadcast_strides(glow_in(g, n, 1), x->rank, x->dims, ss);
  for (int64_t i = 0, e = glow_value_numel(x); i < e; i++) {
    int64_t si = 0;
    for (int d = 0; d < x->rank; d++)
      si += idx[d] * ss[d];
    if (glow_dtype_is_float(x->dt)) {
      double v = glow_elem_get(x->dt, ins[0], i);
      glow_elem_set(x->dt, outs[0], i, v < 0 ? v * glow_elem_get(x->dt, ins[1], si) : v);
    } else {
      int64_t v = glow_elem_geti(x->dt, ins[0], i);
      if (!glow_dtype_is_unsigned_int(x->dt) && v < 0)
        v = (int64_t)((uint64_t)v * (uint64_t)glow_elem_geti(x->dt, ins[1], si));
      glow_elem_seti(x->dt, outs[0], i, v);
    }
    for (int d = x->rank - 1; d >= 0 && ++idx[d] == x->dims[d]; d--)
      idx[d] = 0;
  }
  return 0;
}

static int lower_prelu(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  if (glow_dtype_is_unsigned_int(x->dt)) /* never negative */
    return glow_lower_copy(g, n, kc);
  int64_t ss[GLOW_MAX_RANK], dims[GLOW_MAX_RANK], cs[GLOW_MAX_RANK];
  glow_broadcast_strides(glow_in(g, n, 1), x->rank, x->dims, ss);
  /* Merge neighbouring axes that the slope walks alike (both broadcast, or both dense). */
  int r = 0;
  for (int d = 0; d < x->rank; d++) {
    if (r > 0 && ((cs[r - 1] == 0 && ss[d] == 0) || (ss[d] != 0 && cs[r - 1] == ss[d] * x->dims[d]))) {
      dims[r - 1] *= x->dims[d];
      cs[r - 1] = ss[d];
      continue;
    }
    dims[r] = x->dims[d];
    cs[r++] = ss[d];
  }
  if (r == 0) {
    dims[0] = 1;
    cs[r++] = 0;
  }
  glow_kcall_init(kc, "glow_k_prelu_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, n->in[1]);
  glow_abi_ew a = {.r = r};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, r, dims);
  glow_kcall_params(kc, r, cs);
  return 0;
}

const glow_op_info glow_op_PRELU = {"PRelu", 2, 2, 1, 1, infer_prelu, eval_prelu, lower_prelu};

/* -- Dropout: inference only. Output = input; the optional mask is all true
 * (bool from opset 10, the input's type before). Training mode (is_test = 0
 * before opset 7; training_mode = true from 12) is random, hence refused,
 * except with ratio 0 where it is the identity too. -- */

/* Input idx must be a compile-time constant; reports the standard message if not. */
static int need_const(const glow_graph *g, const glow_node *n, int idx, const char *what) {
  const glow_value *v = glow_in(g, n, idx);
  int64_t unused;
  if (v && v->kind == GLOW_VAL_CONST)
    return 0;
  glow_need_const_ints(g, n, idx, what, &unused, 1);
  return -1;
}

static int infer_dropout(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (g->opset < 7 && glow_attr_int(n, "is_test", 0) == 0)
    return glow_node_error(g, n, "Dropout with is_test = 0 (training, the default before opset 7) is random; "
                                 "glowc compiles inference (set is_test = 1)");
  const glow_value *t = glow_in(g, n, 2);
  if (t) {
    if (need_const(g, n, 2, "training_mode"))
      return -1;
    if (glow_elem_geti(t->dt, t->data, 0)) {
      const glow_value *r = glow_in(g, n, 1);
      if (r && need_const(g, n, 1, "ratio"))
        return -1;
      double ratio = r ? glow_elem_get(r->dt, r->data, 0) : 0.5;
      if (ratio != 0)
        return glow_node_error(g, n, "Dropout in training mode (training_mode = true, ratio = %g) is random; "
                                     "glowc compiles inference", ratio);
    }
  }
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, x->dims);
  if (glow_out(g, n, 1))
    glow_value_set_shape(glow_out(g, n, 1), g->opset >= 10 ? GLOW_DT_BOOL : x->dt, x->rank, x->dims);
  return 0;
}

static int eval_dropout(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0), *m = glow_out(g, n, 1);
  memcpy(outs[0], ins[0], glow_value_bytes(x));
  for (int64_t i = 0, e = m ? glow_value_numel(m) : 0; i < e; i++)
    glow_elem_set(m->dt, outs[1], i, 1);
  return 0;
}

static int lower_dropout(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0), *m = glow_out(g, n, 1);
  if (!m)
    return glow_lower_copy(g, n, kc);
  uint8_t one[8] = {0};
  int64_t pattern = 0;
  glow_elem_set(m->dt, one, 0, 1);
  for (int k = 7; k >= 0; k--)
    pattern = (int64_t)((uint64_t)pattern << 8 | one[k]);
  glow_kcall_init(kc, "glow_k_dropout");
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->out[1]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_dropout a = {.x_bytes = (int64_t)glow_value_bytes(x),
                        .n = glow_value_numel(m),
                        .mask_size = (int64_t)glow_dtype_size(m->dt),
                        .mask_bits = pattern};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_DROPOUT = {"Dropout", 1, 3, 1, 2, infer_dropout, eval_dropout, lower_dropout};
