/* QuantizeLinear, DequantizeLinear (opsets 10 and 13: per tensor, or per
 * slice of one axis), DynamicQuantizeLinear and com.microsoft's QLinearAdd
 * and QLinearMul (its pools are in quant-pool.c); all but DynamicQuantizeLinear
 * and QLinearMul on int16 too (Int16 quantization: int16 zero points, int64
 * sums). Kernels:
 * targets/common/kernels/quant.c, with p = outer, axis extent, inner (the
 * scale of element i is scale[(i / inner) % extent]; 1, 1, numel per tensor). */
#include <math.h>

#include "ops/elementwise-util.h"
#include "ops/quant-util.h"

int glow_q_check_param(const glow_graph *g, const glow_node *n, int i, const char *what, int f32, glow_dtype zdt,
                       int64_t count) {
  const glow_value *v = glow_in(g, n, i);
  if (!v)
    return 0;
  int64_t e = glow_value_numel(v);
  int dt_ok = f32 ? v->dt == GLOW_DT_F32 : zdt != GLOW_DT_UNDEF ? v->dt == zdt : glow_q_is_8bit(v->dt);
  const char *want = f32 ? "float" : zdt != GLOW_DT_UNDEF ? glow_dtype_name(zdt) : "uint8 or int8";
  if (!dt_ok || v->rank > 1 || (e != 1 && e != count)) {
    if (count > 1)
      return glow_node_error(g, n, "%s must be a %s scalar or a vector of %lld", what, want, (long long)count);
    return glow_node_error(g, n, "%s must be a %s scalar", what, want);
  }
  return 0;
}

/* Input 0 as outer x extent x inner: the parameters apply per index of the
 * middle axis (input 1 holds one scale per slice) or to the whole tensor. */
static int q_layout(const glow_graph *g, const glow_node *n, int64_t *outer, int64_t *ext, int64_t *inner) {
  const glow_value *x = glow_in(g, n, 0), *s = glow_in(g, n, 1);
  *outer = *ext = 1;
  *inner = glow_value_numel(x);
  if (glow_value_numel(s) == 1)
    return 0;
  int axis = glow_norm_axis(g, n, glow_attr_int(n, "axis", 1), x->rank);
  if (axis < 0)
    return -1;
  if (s->rank != 1 || s->dims[0] != x->dims[axis])
    return glow_node_error(g, n, "the scale must be a scalar or hold one value per index of axis %d (%lld)", axis,
                           (long long)x->dims[axis]);
  *ext = x->dims[axis];
  *inner = 1;
  for (int d = 0; d < x->rank; d++)
    if (d < axis)
      *outer *= x->dims[d];
    else if (d > axis)
      *inner *= x->dims[d];
  return 0;
}

/* Checks input 0's dtype against `ok` and the scale and zero point (inputs 1
 * and 2, the zero point of dtype zdt when that is not UNDEF). */
static int q_get(const glow_graph *g, const glow_node *n, int x_ok, const char *xtypes, glow_dtype zdt, int64_t *outer,
                 int64_t *ext, int64_t *inner) {
  const glow_value *x = glow_in(g, n, 0);
  if (!x_ok)
    return glow_node_error(g, n, "input type %s is not supported (%s)", glow_dtype_name(x->dt), xtypes);
  if (glow_in(g, n, 1)->dt != GLOW_DT_F32 || glow_in(g, n, 1)->rank > 1)
    return glow_node_error(g, n, "the scale must be a float scalar or vector");
  if (q_layout(g, n, outer, ext, inner))
    return -1;
  if (glow_q_check_param(g, n, 2, "the zero point", 0, zdt, *ext))
    return -1;
  return 0;
}

/* ---- QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point) ---- */

static int quantize_get(const glow_graph *g, const glow_node *n, int64_t *outer, int64_t *ext, int64_t *inner) {
  glow_dtype dt = glow_in(g, n, 0)->dt;
  const glow_value *z = glow_in(g, n, 2);
  return q_get(g, n, dt == GLOW_DT_F32 || dt == GLOW_DT_I32, "float or int32",
               z && z->dt == GLOW_DT_I16 ? GLOW_DT_I16 : GLOW_DT_UNDEF, outer, ext, inner);
}

static glow_dtype quantize_type(const glow_graph *g, const glow_node *n) {
  return glow_in(g, n, 2) ? glow_in(g, n, 2)->dt : GLOW_DT_U8;
}

static int infer_quantize(glow_graph *g, glow_node *n) {
  int64_t o, e, i;
  if (quantize_get(g, n, &o, &e, &i))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  glow_value_set_shape(glow_out(g, n, 0), quantize_type(g, n), x->rank, x->dims);
  return 0;
}

static int eval_quantize(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  int64_t outer, ext, inner;
  if (quantize_get(g, n, &outer, &ext, &inner))
    return -1;
  const glow_value *x = glow_in(g, n, 0), *s = glow_in(g, n, 1), *z = glow_in(g, n, 2);
  glow_dtype ydt = quantize_type(g, n);
  int32_t lo, hi;
  glow_q_range(ydt, &lo, &hi);
  for (int64_t o = 0, k = 0; o < outer; o++)
    for (int64_t a = 0; a < ext; a++) {
      float sv = glow_q_scale(s, ins[1], a);
      int32_t zv = glow_q_zero(z, z ? ins[2] : NULL, a);
      for (int64_t i = 0; i < inner; i++, k++) {
        float xv = x->dt == GLOW_DT_F32 ? ((const float *)ins[0])[k] : (float)((const int32_t *)ins[0])[k];
        glow_elem_seti(ydt, outs[0], k, glow_q_saturate(xv / sv, zv, lo, hi));
      }
    }
  return 0;
}

/* Parts of (De)QuantizeLinear (t: Y, X, scale, zero point; p: glow_abi_quantize):
 * slices of the outer rows, else of the axis (scales and zero points move with
 * it), else of the elements. */
static void q_split(const glow_graph *g, const glow_node *n, glow_kcall *kc, const glow_abi_quantize *a) {
  int64_t ey = (int64_t)glow_dtype_size(glow_out(g, n, 0)->dt), ex = (int64_t)glow_dtype_size(glow_in(g, n, 0)->dt);
  const glow_value *s = glow_in(g, n, 1), *z = glow_in(g, n, 2);
  int axis = a->outer > 1 ? 0 : a->len > 1 ? 1 : 2;
  int64_t unit = axis == 0 ? a->len * a->inner : axis == 1 ? a->inner : 1;
  int64_t bytes[4] = {unit * ey, unit * ex, axis == 1 ? (int64_t)glow_dtype_size(s->dt) : 0,
                      axis == 1 && z ? (int64_t)glow_dtype_size(z->dt) : 0};
  glow_kcall_split(kc,
                   axis == 0   ? GLOW_ABI_INDEX(glow_abi_quantize, outer)
                   : axis == 1 ? GLOW_ABI_INDEX(glow_abi_quantize, len)
                               : GLOW_ABI_INDEX(glow_abi_quantize, inner),
                   bytes);
}

static int lower_quantize(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_abi_quantize a;
  if (quantize_get(g, n, &a.outer, &a.len, &a.inner))
    return -1;
  a.sign = quantize_type(g, n) == GLOW_DT_I8;
  glow_kcall_init(kc, "glow_k_quantize%s_%s", quantize_type(g, n) == GLOW_DT_I16 ? "16" : "",
                  glow_dtype_suffix(glow_in(g, n, 0)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_kcall_abi(kc, &a, sizeof a);
  q_split(g, n, kc, &a);
  return 0;
}

const glow_op_info glow_op_QUANTIZE_LINEAR = {"QuantizeLinear", 2, 3, 1, 1, infer_quantize, eval_quantize,
                                              lower_quantize};

/* ---- DequantizeLinear: y = (x - x_zero_point) * x_scale ---- */

static int dequantize_get(const glow_graph *g, const glow_node *n, int64_t *outer, int64_t *ext, int64_t *inner) {
  glow_dtype dt = glow_in(g, n, 0)->dt;
  return q_get(g, n, glow_q_is_quant(dt) || dt == GLOW_DT_I32, "uint8, int8, int16 or int32", dt, outer, ext, inner);
}

static int infer_dequantize(glow_graph *g, glow_node *n) {
  int64_t o, e, i;
  if (dequantize_get(g, n, &o, &e, &i))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_F32, x->rank, x->dims);
  return 0;
}

static int eval_dequantize(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  int64_t outer, ext, inner;
  if (dequantize_get(g, n, &outer, &ext, &inner))
    return -1;
  const glow_value *x = glow_in(g, n, 0), *s = glow_in(g, n, 1), *z = glow_in(g, n, 2);
  float *y = outs[0];
  for (int64_t o = 0, k = 0; o < outer; o++)
    for (int64_t a = 0; a < ext; a++) {
      float sv = glow_q_scale(s, ins[1], a);
      int64_t zv = glow_q_zero(z, z ? ins[2] : NULL, a);
      for (int64_t i = 0; i < inner; i++, k++)
        y[k] = (float)(glow_elem_geti(x->dt, ins[0], k) - zv) * sv;
    }
  return 0;
}

static int lower_dequantize(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_abi_quantize a;
  if (dequantize_get(g, n, &a.outer, &a.len, &a.inner))
    return -1;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  a.sign = dt == GLOW_DT_I8;
  glow_kcall_init(kc, "glow_k_dequantize_%s", dt == GLOW_DT_I32 ? "i32" : dt == GLOW_DT_I16 ? "q16" : "q8");
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_kcall_abi(kc, &a, sizeof a);
  q_split(g, n, kc, &a);
  return 0;
}

const glow_op_info glow_op_DEQUANTIZE_LINEAR = {"DequantizeLinear", 2, 3, 1, 1, infer_dequantize, eval_dequantize,
                                                lower_dequantize};

/* ---- DynamicQuantizeLinear: uint8 over [min(x, 0), max(x, 0)], in float32 as
 * ONNX's function body: scale = (max - min) / 255,
 * zero point = saturate(round(0 - min / scale)), y = QuantizeLinear(x). ---- */

static int infer_dynamic_quantize(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (x->dt != GLOW_DT_F32)
    return glow_node_error(g, n, "input type %s is not supported (float)", glow_dtype_name(x->dt));
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_U8, x->rank, x->dims);
  if (glow_out(g, n, 1))
    glow_value_set_shape(glow_out(g, n, 1), GLOW_DT_F32, 0, NULL);
  if (glow_out(g, n, 2))
    glow_value_set_shape(glow_out(g, n, 2), GLOW_DT_U8, 0, NULL);
  return 0;
}

static int eval_dynamic_quantize(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const float *x = ins[0];
  int64_t e = glow_value_numel(glow_in(g, n, 0));
  float lo = 0.0f, hi = 0.0f;
  for (int64_t i = 0; i < e; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  float scale = (hi - lo) / 255.0f;
  int32_t zp = glow_q_saturate(0.0f - lo / scale, 0, 0, 255);
  uint8_t *y = outs[0];
  for (int64_t i = 0; i < e; i++)
    y[i] = (uint8_t)glow_q_saturate(x[i] / scale, zp, 0, 255);
  if (outs[1])
    *(float *)outs[1] = scale;
  if (outs[2])
    *(uint8_t *)outs[2] = (uint8_t)zp;
  return 0;
}

static int lower_dynamic_quantize(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_kcall_init(kc, "glow_k_dynamic_quantize_f32");
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, i < n->nout ? n->out[i] : -1);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_count a = {.n = glow_value_numel(glow_in(g, n, 0))};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_DYNAMIC_QUANTIZE_LINEAR = {"DynamicQuantizeLinear", 1, 1, 1, 3, infer_dynamic_quantize,
                                                      eval_dynamic_quantize, lower_dynamic_quantize};

/* ---- QLinearAdd and QLinearMul (com.microsoft): C = A + B, C = A * B, with
 * numpy broadcasting, all of one dtype (uint8 or int8), per-tensor parameters.
 * QLinearAdd as ONNX Runtime's reference (MlasQLinearAddKernelRawHelper), in
 * float32:
 *   va = A_scale * (a - A_zp), vb = B_scale * (b - B_zp),
 *   c = saturate(round_half_even((va + vb) / C_scale) + C_zp)
 * (separate products: no fused multiply-add).
 * QLinearMul as ONNX Runtime's kernels for x86 (SSE2) and Arm64 (NEON)
 * compute it (MlasQLinearMulKernel, mlas/lib/qlmul.cpp): the exact int32
 * product p = (a - A_zp) * (b - B_zp), then in float32, with
 * m = (A_scale * B_scale) / C_scale,
 *   c = saturate(round_half_even((float)p * m + C_zp))
 * (the product and the sum rounded separately; MLAS's portable C++ fallback,
 * which no mainstream target uses, dequantizes A and B first instead). ---- */

/* Inputs: A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp (zero points optional). */
static int qbinary_check(const glow_graph *g, const glow_node *n) {
  static const char *const names[] = {NULL, "A_scale", "A_zero_point", NULL, "B_scale", "B_zero_point", "C_scale",
                                      "C_zero_point"};
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 3);
  int mul = n->op == GLOW_OP_QLINEAR_MUL; /* QLinearMul: 8 bits only */
  if (!(mul ? glow_q_is_8bit(a->dt) : glow_q_is_quant(a->dt)) || b->dt != a->dt)
    return glow_node_error(g, n, "A and B must both be uint8, both int8%s (A is %s, B %s)",
                           mul ? "" : " or both int16", glow_dtype_name(a->dt), glow_dtype_name(b->dt));
  for (int i = 1; i < 8; i++)
    if (i != 3 && glow_q_check_param(g, n, i, names[i], i == 1 || i == 4 || i == 6, a->dt, 1))
      return -1;
  return 0;
}

static int infer_qbinary(glow_graph *g, glow_node *n) {
  if (qbinary_check(g, n))
    return -1;
  const glow_value *a = glow_in(g, n, 0), *b = glow_in(g, n, 3);
  int r = a->rank > b->rank ? a->rank : b->rank;
  int64_t dims[GLOW_MAX_RANK];
  for (int d = 0; d < r; d++) {
    int64_t da = d < r - a->rank ? 1 : a->dims[d - (r - a->rank)];
    int64_t db = d < r - b->rank ? 1 : b->dims[d - (r - b->rank)];
    if (da != db && da != 1 && db != 1) {
      char s1[128], s2[128];
      return glow_node_error(g, n, "A and B cannot be broadcast together: %s and %s", glow_shape_str(a, s1, sizeof s1),
                             glow_shape_str(b, s2, sizeof s2));
    }
    dims[d] = da == 1 ? db : da;
  }
  glow_value_set_shape(glow_out(g, n, 0), a->dt, r, dims);
  return 0;
}

static int eval_qbinary(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  if (qbinary_check(g, n))
    return -1;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  int mul = n->op == GLOW_OP_QLINEAR_MUL;
  float sa = *(const float *)ins[1], sb = *(const float *)ins[4], sc = *(const float *)ins[6], m = sa * sb / sc;
  int32_t za = glow_q_zero(glow_in(g, n, 2), ins[2], 0), zb = glow_q_zero(glow_in(g, n, 5), ins[5], 0);
  int32_t zc = glow_q_zero(glow_in(g, n, 7), ins[7], 0), lo, hi;
  glow_q_range(dt, &lo, &hi);
  glow_ew_iter ia, ib;
  glow_ew_iter_init(&ia, g, n, 0, 1);
  glow_ew_iter_init(&ib, g, n, 3, 1);
  for (int64_t i = 0, e = glow_value_numel(glow_out(g, n, 0)); i < e; i++) {
    int32_t a = (int32_t)glow_elem_geti(dt, ins[0], ia.off[0]) - za;
    int32_t b = (int32_t)glow_elem_geti(dt, ins[3], ib.off[0]) - zb;
    if (mul) {
      float v = (float)(a * b) * m;
      v = v + (float)zc;
      glow_elem_seti(dt, outs[0], i, glow_q_saturate(v, 0, lo, hi));
    } else {
      float va = sa * (float)a;
      float vb = sb * (float)b;
      float v = va + vb;
      glow_elem_seti(dt, outs[0], i, glow_q_saturate(v / sc, zc, lo, hi));
    }
    glow_ew_iter_next(&ia);
    glow_ew_iter_next(&ib);
  }
  return 0;
}

static int lower_qbinary(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  static const int ab[] = {0, 3}, params[] = {1, 2, 4, 5, 6, 7};
  if (qbinary_check(g, n))
    return -1;
  glow_kcall_init(kc, n->op == GLOW_OP_QLINEAR_MUL ? "glow_k_qlinear_mul_q8" : "glow_k_qlinear_add_%s",
                  glow_in(g, n, 0)->dt == GLOW_DT_I16 ? "q16" : "q8");
  if (glow_ew_lower_bcast_ins(g, n, kc, ab, 2))
    return -1;
  for (int i = 0; i < 6; i++)
    glow_kcall_tensor(kc, params[i] < n->nin ? n->in[params[i]] : -1);
  glow_kcall_param(kc, glow_in(g, n, 0)->dt == GLOW_DT_I8); /* the int8 flag, after glow_abi_ew's arrays */
  return 0;
}

const glow_op_info glow_op_QLINEAR_ADD = {"QLinearAdd", 7, 8, 1, 1, infer_qbinary, eval_qbinary, lower_qbinary};
const glow_op_info glow_op_QLINEAR_MUL = {"QLinearMul", 7, 8, 1, 1, infer_qbinary, eval_qbinary, lower_qbinary};
