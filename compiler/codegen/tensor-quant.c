/* A quantized input's or output's scale and offset, from the value or its producer. */
#include <string.h>

#include "codegen/tensor-quant.h"

static int quantized_type(glow_dtype dt) {
  return dt == GLOW_DT_I8 || dt == GLOW_DT_U8 || dt == GLOW_DT_I16 || dt == GLOW_DT_U16 || dt == GLOW_DT_I32;
}

/* A constant scalar, as a double: 1, or 0 if `id` is not one (or of another type). */
static int scalar(const glow_graph *g, int id, double *x) {
  if (id < 0 || id >= g->nvals)
    return 0;
  const glow_value *v = &g->vals[id];
  if (v->kind != GLOW_VAL_CONST || !v->data || v->rank < 0 || glow_value_numel(v) != 1)
    return 0;
  switch (v->dt) {
  case GLOW_DT_F32: { float f; memcpy(&f, v->data, 4); *x = f; return 1; }
  case GLOW_DT_I8: *x = *(const int8_t *)v->data; return 1;
  case GLOW_DT_U8: *x = *(const uint8_t *)v->data; return 1;
  case GLOW_DT_I16: { int16_t i; memcpy(&i, v->data, 2); *x = i; return 1; }
  case GLOW_DT_U16: { uint16_t u; memcpy(&u, v->data, 2); *x = u; return 1; }
  case GLOW_DT_I32: { int32_t i; memcpy(&i, v->data, 4); *x = i; return 1; }
  default: return 0;
  }
}

/* Where a producer's output scale and zero point are among its inputs; -1: not such an op. */
static int scale_input(glow_op op) {
  switch (op) {
  case GLOW_OP_QUANTIZE_LINEAR: return 1;           /* x, y_scale, y_zero_point */
  case GLOW_OP_QLINEAR_CONV:                        /* x, x_s, x_zp, w, w_s, w_zp, y_scale, y_zero_point, B */
  case GLOW_OP_QLINEAR_MAT_MUL:                     /* a, a_s, a_zp, b, b_s, b_zp, y_scale, y_zero_point */
  case GLOW_OP_QLINEAR_ADD:                         /* A, A_s, A_zp, B, B_s, B_zp, C_scale, C_zero_point */
  case GLOW_OP_QLINEAR_MUL: return 6;
  case GLOW_OP_QLINEAR_CONCAT: return 0;            /* Y_scale, Y_zero_point, then (x, s, zp)... */
  case GLOW_OP_QLINEAR_GLOBAL_AVERAGE_POOL:         /* X, x_s, x_zp, y_scale, y_zero_point */
  case GLOW_OP_QLINEAR_AVERAGE_POOL: return 3;
  case GLOW_OP_INT_LOOKUP_TABLE: return 2;          /* X, Table, y_scale, y_zero_point */
  default: return -1;
  }
}

/* Ops whose output holds input 0's quantized values, moved or selected, on its scale. */
static int moves_values(glow_op op) {
  switch (op) {
  case GLOW_OP_IDENTITY:
  case GLOW_OP_RESHAPE:
  case GLOW_OP_FLATTEN:
  case GLOW_OP_SQUEEZE:
  case GLOW_OP_UNSQUEEZE:
  case GLOW_OP_TRANSPOSE:
  case GLOW_OP_DEPTH_TO_SPACE:
  case GLOW_OP_SPACE_TO_DEPTH:
  case GLOW_OP_SLICE:
  case GLOW_OP_MAX_POOL:
  case GLOW_OP_GLOBAL_MAX_POOL: return 1;
  default: return 0;
  }
}

int glow_value_quant(const glow_graph *g, int id, double *scale, int64_t *offset) {
  *scale = 0;
  *offset = 0;
  for (int hops = 0; id >= 0 && id < g->nvals && hops < g->nnodes + 1; hops++) {
    const glow_value *v = &g->vals[id];
    if (!quantized_type(v->dt))
      return 0;
    if (v->qscale != 0.0f) {
      *scale = v->qscale;
      *offset = v->qoffset;
      return 1;
    }
    if (v->producer < 0 || v->producer >= g->nnodes) /* an input, or a graph without its nodes */
      return 0;
    const glow_node *n = &g->nodes[v->producer];
    int k = scale_input(n->op);
    double s, zp = 0;
    if (k >= 0) {
      if (n->nin <= k || !scalar(g, n->in[k], &s) || !(s > 0) ||
          (n->nin > k + 1 && n->in[k + 1] >= 0 && !scalar(g, n->in[k + 1], &zp)))
        return 0;
      *scale = s;
      *offset = (int64_t)zp;
      return 1;
    }
    if (!moves_values(n->op) || n->nin < 1 || n->in[0] < 0 || g->vals[n->in[0]].dt != v->dt)
      return 0;
    id = n->in[0];
  }
  return 0;
}
