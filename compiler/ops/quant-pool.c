/* com.microsoft's int8 pools over N x C x spatial (channels_last=0 only):
 * QLinearGlobalAveragePool and QLinearAveragePool, each with ONNX Runtime's
 * arithmetic (below). Inputs of both: X, x_scale, x_zero_point, y_scale,
 * y_zero_point (zero points optional; per-tensor parameters). Kernels:
 * glow_k_qlinear_global_avgpool_q8 (_q16 for int16: Int16 quantization;
 * targets/common/kernels/quant.c) and
 * glow_k_qlinear_avgpool_q8 (pool.c). */
#include <stdio.h>
#include <string.h>

#include "ops/quant-util.h"

typedef struct {
  float xs, ys;
  int32_t zx, zy;
} qpool_q;

/* X's layout, dtype and rank, and the four parameters. */
static int qpool_check(const glow_graph *g, const glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t cl = glow_attr_int(n, "channels_last", 0);
  if (cl != 0)
    return glow_node_error(g, n, "channels_last=%lld is not supported (only 0: X is N x C x spatial)", (long long)cl);
  int global = n->op == GLOW_OP_QLINEAR_GLOBAL_AVERAGE_POOL; /* int16 too (Int16 quantization) */
  if (!(global ? glow_q_is_quant(x->dt) : glow_q_is_8bit(x->dt)) || x->rank < 3) {
    char s[128];
    return glow_node_error(g, n, "X must be uint8%s or int8 of rank 3 or more (N x C x spatial), not %s %s",
                           global ? ", int16" : "", glow_dtype_name(x->dt), glow_shape_str(x, s, sizeof s));
  }
  if (glow_q_check_param(g, n, 1, "x_scale", 1, GLOW_DT_UNDEF, 1) ||
      glow_q_check_param(g, n, 2, "x_zero_point", 0, x->dt, 1) ||
      glow_q_check_param(g, n, 3, "y_scale", 1, GLOW_DT_UNDEF, 1) ||
      glow_q_check_param(g, n, 4, "y_zero_point", 0, x->dt, 1))
    return -1;
  return 0;
}

static qpool_q qpool_read(const glow_graph *g, const glow_node *n, const void *const *ins) {
  qpool_q q = {*(const float *)ins[1], *(const float *)ins[3], glow_q_zero(glow_in(g, n, 2), ins[2], 0),
               glow_q_zero(glow_in(g, n, 4), ins[4], 0)};
  return q;
}

/* The kernel's tensors: Y, then the five inputs. */
static void qpool_tensors(const glow_node *n, glow_kcall *kc) {
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 5; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
}

/* ---- QLinearGlobalAveragePool: the mean of each N x C plane, as ONNX Runtime
 * (MlasQLinearGlobalAveragePoolNchw): acc = sum(x) - x_zp * S over the S
 * elements, m = x_scale / (y_scale * S) in float32,
 * y = saturate(round_half_even((float)acc * m) + y_zp). ---- */

static int gap_size(const glow_graph *g, const glow_node *n, int64_t *planes, int64_t *size) {
  const glow_value *x = glow_in(g, n, 0);
  *planes = x->dims[0] * x->dims[1];
  *size = glow_value_numel(x) / (*planes ? *planes : 1);
  if (*size >= (1 << 23))
    return glow_node_error(g, n, "planes of %lld elements: at most 2^23 - 1 are supported", (long long)*size);
  return 0;
}

static void gap_eval(glow_dtype dt, const void *x, void *y, int64_t planes, int64_t size, qpool_q q) {
  int32_t lo, hi;
  glow_q_range(dt, &lo, &hi);
  float m = q.xs / (q.ys * (float)size);
  for (int64_t c = 0; c < planes; c++) {
    int64_t acc = -(int64_t)q.zx * size; /* fits int32 for 8 bits, as the kernel's sum */
    for (int64_t i = 0; i < size; i++)
      acc += glow_elem_geti(dt, x, c * size + i);
    glow_elem_seti(dt, y, c, glow_q_saturate((float)acc * m, q.zy, lo, hi));
  }
}

static void gap_lower(const glow_node *n, glow_kcall *kc, int64_t planes, int64_t size, glow_dtype dt) {
  glow_kcall_init(kc, "glow_k_qlinear_global_avgpool_%s", dt == GLOW_DT_I16 ? "q16" : "q8");
  qpool_tensors(n, kc);
  glow_abi_qgap a = {.planes = planes, .size = size, .sign = dt == GLOW_DT_I8};
  glow_kcall_abi(kc, &a, sizeof a);
}

static int infer_qgap(glow_graph *g, glow_node *n) {
  int64_t planes, size, dims[GLOW_MAX_RANK];
  if (qpool_check(g, n) || gap_size(g, n, &planes, &size))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  for (int d = 0; d < x->rank; d++)
    dims[d] = d < 2 ? x->dims[d] : 1;
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  return 0;
}

static int eval_qgap(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  int64_t planes, size;
  if (qpool_check(g, n) || gap_size(g, n, &planes, &size))
    return -1;
  gap_eval(glow_in(g, n, 0)->dt, ins[0], outs[0], planes, size, qpool_read(g, n, ins));
  return 0;
}

static int lower_qgap(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  int64_t planes, size;
  if (qpool_check(g, n) || gap_size(g, n, &planes, &size))
    return -1;
  gap_lower(n, kc, planes, size, glow_in(g, n, 0)->dt);
  return 0;
}

const glow_op_info glow_op_QLINEAR_GLOBAL_AVERAGE_POOL = {"QLinearGlobalAveragePool", 4, 5, 1, 1, infer_qgap,
                                                          eval_qgap, lower_qgap};

/* ---- QLinearAveragePool: AveragePool's attributes (kernel_shape, strides,
 * pads, auto_pad, ceil_mode, count_include_pad; it has no dilations) and
 * output size. ONNX Runtime's arithmetic (contrib_ops/cpu/quantization/
 * qlinear_pool.cc, which dequantizes X to float32 first), in float32:
 *   v = x_scale * (x - x_zp) for every tap inside X, summed in the window's
 *   row-major order; avg = sum / count, count being the taps inside X or,
 *   with count_include_pad, the kernel's size (also where a ceil_mode window
 *   reaches past the padding);
 *   y = saturate(round_half_even(avg / y_scale + y_zp)), the zero point added
 *   before rounding.
 * A kernel that covers all of X without padding is a global pool, and ONNX
 * Runtime then runs QLinearGlobalAveragePool's integer formula: so does glowc. ---- */

const char *glow_q_avgpool_refusal(const glow_node *n, const glow_nn_win *w, char *buf, size_t cap) {
  const char *ap = glow_attr_string(n, "auto_pad", "NOTSET");
  if (glow_attr_int(n, "ceil_mode", 0) && !strcmp(ap, "VALID"))
    return "ceil_mode=1 with auto_pad=VALID is not supported";
  for (int i = 0; i < w->nsp; i++) {
    if (w->d[i] != 1)
      return "dilations other than 1 are not supported (QLinearAveragePool has none)";
    if (w->pb[i] >= w->k[i] || w->pe[i] >= w->k[i]) {
      snprintf(buf, cap, "pads %lld and %lld on axis %d must be smaller than the kernel (%lld)", (long long)w->pb[i],
               (long long)w->pe[i], 2 + i, (long long)w->k[i]);
      return buf;
    }
    if (!strncmp(ap, "SAME_", 5) && (w->out[i] - 1) * w->s[i] + w->k[i] < w->in[i]) {
      snprintf(buf, cap, "auto_pad=%s with a kernel (%lld) smaller than the stride (%lld) on axis %d is not supported "
               "(ONNX Runtime pads it negatively)", ap, (long long)w->k[i], (long long)w->s[i], 2 + i);
      return buf;
    }
  }
  return NULL;
}

/* The window, and whether the pool is global. */
static int qavg_get(const glow_graph *g, const glow_node *n, glow_nn_win *w, int *global) {
  char buf[200];
  const char *why;
  if (qpool_check(g, n) || glow_nn_win_get(g, n, glow_in(g, n, 0), NULL, glow_attr_int(n, "ceil_mode", 0) != 0, w))
    return -1;
  if ((why = glow_q_avgpool_refusal(n, w, buf, sizeof buf)))
    return glow_node_error(g, n, "%s", why);
  *global = 1;
  for (int i = 0; i < w->nsp; i++)
    *global &= w->k[i] == w->in[i] && !w->pb[i] && !w->pe[i];
  int64_t planes, size;
  return *global ? gap_size(g, n, &planes, &size) : 0;
}

static int infer_qavg(glow_graph *g, glow_node *n) {
  glow_nn_win w;
  int global;
  if (qavg_get(g, n, &w, &global))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  int64_t dims[5];
  glow_nn_win_out_dims(x, &w, dims);
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank, dims);
  return 0;
}

static int eval_qavg(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  glow_nn_win w;
  int global;
  if (qavg_get(g, n, &w, &global))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  glow_dtype dt = x->dt;
  qpool_q q = qpool_read(g, n, ins);
  int64_t planes = x->dims[0] * x->dims[1], isz = 1, osz = 1, ksz = 1;
  for (int i = 0; i < w.nsp; i++) {
    isz *= w.in[i];
    osz *= w.out[i];
    ksz *= w.k[i];
  }
  if (global) {
    gap_eval(dt, ins[0], outs[0], planes, isz, q);
    return 0;
  }
  int incl = glow_attr_int(n, "count_include_pad", 0) != 0;
  int32_t lo, hi;
  glow_q_range(dt, &lo, &hi);
  for (int64_t c = 0; c < planes; c++) {
    int64_t op[3] = {0};
    do {
      int64_t kp[3] = {0}, cnt = 0;
      float acc = 0.0f;
      do {
        int64_t ip[3], inside = 1;
        for (int i = 0; i < w.nsp; i++) {
          ip[i] = op[i] * w.s[i] + kp[i] - w.pb[i];
          inside &= ip[i] >= 0 && ip[i] < w.in[i];
        }
        if (!inside)
          continue;
        int32_t xv = (int32_t)glow_elem_geti(dt, ins[0], c * isz + glow_nn_win_offset(w.nsp, w.in, ip));
        float v = q.xs * (float)(xv - q.zx);
        acc = acc + v;
        cnt++;
      } while (glow_nn_win_next(w.nsp, w.k, kp));
      float avg = acc / (float)(incl ? ksz : cnt);
      float v = avg / q.ys;
      v = v + (float)q.zy;
      glow_elem_seti(dt, outs[0], c * osz + glow_nn_win_offset(w.nsp, w.out, op), glow_q_saturate(v, 0, lo, hi));
    } while (glow_nn_win_next(w.nsp, w.out, op));
  }
  return 0;
}

static int lower_qavg(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_nn_win w;
  int global;
  if (qavg_get(g, n, &w, &global))
    return -1;
  const glow_value *x = glow_in(g, n, 0);
  int64_t planes = x->dims[0] * x->dims[1];
  if (global) {
    gap_lower(n, kc, planes, glow_value_numel(x) / (planes ? planes : 1), x->dt);
    return 0;
  }
  glow_kcall_init(kc, "glow_k_qlinear_avgpool_q8");
  qpool_tensors(n, kc);
  glow_abi_pool a = {.nc = planes,
                     .w = glow_nn_win_abi(&w),
                     .attr = glow_attr_int(n, "count_include_pad", 0) != 0,
                     .sign = x->dt == GLOW_DT_I8};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_QLINEAR_AVERAGE_POOL = {"QLinearAveragePool", 4, 5, 1, 1, infer_qavg, eval_qavg,
                                                   lower_qavg};
