/* Float islands: a TFLite operator on quantized tensors that glowc has no int8
 * form of (SUM, DIV, PRELU, BATCH_MATMUL, LOG_SOFTMAX, ...) runs as its float
 * importer between a DequantizeLinear of each quantized input and a
 * QuantizeLinear of each quantized output, so the rest of the model stays int8.
 * While the float importer runs, the quantized tensors it reads and writes are
 * float tensors: an input's value is its dequantized one (a constant's bytes
 * too, made float), an output's is float; then each is restored. */
#include <stdlib.h>
#include <string.h>

#include "importer/tflite.h"

typedef struct {
  glow_tfl_tensor saved;
  int used;
} island_tensor;

/* 1 if the float importer is to see tensor t as float: quantized, or a quantized int32 bias. */
static int quantized(const glow_tfl_tensor *t) { return t && (glow_tfl_is_q(t) || (t->nq && t->dt == GLOW_DT_I32)); }

/* Input k's tensor as float for the float importer (its state first saved in *s): its
 * dequantized value in its own layout, and for a constant float bytes. */
static int float_input(glow_tfl *c, const glow_tfl_op *op, int k, island_tensor *s) {
  glow_tfl_tensor *t = &c->t[op->in[k]];
  int layout = glow_tfl_home(c, op, k), in[3] = {glow_tfl_in(c, op, k, layout)};
  if (in[0] < 0)
    return -1;
  int64_t n = t->nq;
  char *z = glow_xmalloc((size_t)n * 4);
  for (int64_t i = 0; i < n; i++)
    glow_elem_seti(t->dt, z, i, t->zero[i]);
  in[1] = glow_tfl_const(c, op, "scale", GLOW_DT_F32, n > 1, &n, t->scale);
  in[2] = glow_tfl_const(c, op, "zero_point", t->dt, n > 1, &n, z);
  free(z);
  glow_strbuf b = {0};
  glow_sb_printf(&b, "input%d/dequantized", k);
  int f = glow_tfl_tmp(c, op, b.s);
  glow_sb_free(&b);
  int node = glow_tfl_node(c, op, GLOW_OP_DEQUANTIZE_LINEAR, NULL, 3, in, 1, &f);
  if (n > 1)
    glow_tfl_attr_int(c, node, "axis", glow_tfl_axis(t->qdim, t->rank, layout));
  if (glow_tfl_infer(c, node))
    return -1;
  s->saved = *t;
  s->used = 1;
  if (t->data) { /* the float bytes a float importer may read (glow_tfl_in_perm, glow_tfl_in_bcast) */
    int64_t e = (int64_t)(t->data_size / glow_dtype_size(t->dt)), inner = 1;
    for (int d = t->qdim + 1; d < t->rank && n > 1; d++)
      inner *= t->dims[d];
    float *v = glow_xmalloc(sizeof(float) * (size_t)(e ? e : 1));
    for (int64_t i = 0; i < e; i++) {
      int64_t ch = n > 1 ? i / inner % n : 0;
      v[i] = (float)(glow_elem_geti(t->dt, t->data, i) - t->zero[ch]) * t->scale[ch];
    }
    f = glow_tfl_const(c, op, "float", GLOW_DT_F32, t->rank, t->dims, v);
    free(v);
    t->data = c->g->vals[f].data;
    t->data_size = (size_t)e * sizeof(float);
    layout = GLOW_TFL_NHWC;
  }
  t->val[layout] = f;
  t->val[!layout] = -1;
  t->dt = GLOW_DT_F32;
  t->type = GLOW_TFL_FLOAT32;
  t->nq = 0;
  return 0;
}

/* Output k's float value (named as the tensor) hands its name to its QuantizeLinear. */
static int quantize_output(glow_tfl *c, const glow_tfl_op *op, int k, const glow_tfl_tensor *saved) {
  glow_tfl_tensor *t = &c->t[op->out[k]];
  int layout = t->val[GLOW_TFL_NHWC] >= 0 ? GLOW_TFL_NHWC : GLOW_TFL_NCHW, f = t->val[layout];
  *t = *saved;
  int in[3] = {f};
  if (f < 0 || glow_tfl_qparams(c, op, op->out[k], &in[1], &in[2]))
    return -1;
  int q = glow_tfl_out(c, op, k, layout);
  glow_value *vf = &c->g->vals[f], *vq = &c->g->vals[q];
  char *name = vf->name;
  vf->name = vq->name;
  vq->name = name;
  glow_str_table_put(&c->names, vf->name, f);
  glow_str_table_put(&c->names, vq->name, q);
  return glow_tfl_infer(c, glow_tfl_node(c, op, GLOW_OP_QUANTIZE_LINEAR, "quantize", 3, in, 1, &q));
}

int glow_tfl_q_island(glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_op_info *f = glow_tfl_op_find(op->code);
  if (!f || f->emit == glow_tfl_q_island)
    return glow_tfl_err(c, op, "has quantized tensors, and glowc has no importer of %s to compute it in float",
                        op->type);
  for (int k = 0; k < op->nout; k++)
    if (glow_tfl_tensor_out(c, op, k)->nq > 1)
      return glow_tfl_err(c, op, "output %d ('%s') has a scale per channel; glowc quantizes outputs per tensor", k,
                          glow_tfl_tensor_out(c, op, k)->name);
  island_tensor *in = glow_xcalloc((size_t)op->nin + 1, sizeof *in), *out = glow_xcalloc((size_t)op->nout, sizeof *out);
  int rc = 0;
  for (int k = 0; k < op->nin && !rc; k++) {
    const glow_tfl_tensor *t = glow_tfl_tensor_in(c, op, k);
    int again = 0; /* an input listed twice is made float once */
    for (int j = 0; j < k; j++)
      again |= op->in[j] == op->in[k];
    if (!again && quantized(t))
      rc = float_input(c, op, k, &in[k]);
  }
  for (int k = 0; k < op->nout && !rc; k++) {
    glow_tfl_tensor *t = &c->t[op->out[k]];
    if (!glow_tfl_is_q(t))
      continue;
    out[k].saved = *t;
    out[k].used = 1;
    t->dt = GLOW_DT_F32;
    t->type = GLOW_TFL_FLOAT32;
    t->nq = 0;
  }
  rc = rc || f->emit(c, op);
  for (int k = 0; k < op->nout; k++)
    if (out[k].used)
      rc = rc || quantize_output(c, op, k, &out[k].saved);
  for (int k = 0; k < op->nin; k++)
    if (in[k].used) /* the tensor's own (quantized) values again, for later operators */
      c->t[op->in[k]] = in[k].saved;
  free(in);
  free(out);
  return rc ? -1 : 0;
}
