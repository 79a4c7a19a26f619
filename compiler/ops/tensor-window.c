/* HannWindow, HammingWindow, BlackmanWindow (opset 17): the window of a given
 * size, w[i] = a0 - a1 cos(2 pi i / N) + a2 cos(4 pi i / N), N = size when
 * periodic (the default), size - 1 when symmetric. The size input must be a
 * compile-time constant: it is the output's length. */
#include <math.h>

#include "ops/tensor-util.h"

typedef struct {
  int64_t size;
  double n, a0, a1, a2;
} window_plan;

static int window_get(const glow_graph *g, const glow_node *n, window_plan *w) {
  if (glow_need_const_int_scalar(g, n, 0, "size", 0, (int64_t)1 << 30, &w->size))
    return -1;
  w->n = (double)(glow_attr_int(n, "periodic", 1) ? w->size : w->size - 1);
  w->a2 = 0;
  if (n->op == GLOW_OP_HANN_WINDOW) {
    w->a0 = w->a1 = 0.5;
  } else if (n->op == GLOW_OP_HAMMING_WINDOW) {
    w->a0 = 25.0 / 46.0;
    w->a1 = 1 - w->a0;
  } else {
    w->a0 = 0.42;
    w->a1 = 0.5;
    w->a2 = 0.08;
  }
  return 0;
}

static int infer_window(glow_graph *g, glow_node *n) {
  window_plan w;
  glow_dtype dt = (glow_dtype)glow_attr_int(n, "output_datatype", GLOW_DT_F32);
  if (dt != GLOW_DT_F32 && dt != GLOW_DT_F64)
    return glow_node_error(g, n, "output_datatype %d is not supported (float and double are)", (int)dt);
  if (window_get(g, n, &w))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), dt, 1, &w.size);
  return 0;
}

static int eval_window(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  window_plan w;
  const double pi = 3.14159265358979323846;
  (void)ins;
  if (window_get(g, n, &w))
    return -1;
  for (int64_t i = 0; i < w.size; i++) {
    double x = w.n > 0 ? (double)i / w.n : 0;
    glow_elem_set(glow_out(g, n, 0)->dt, outs[0], i, w.a0 - w.a1 * cos(2 * pi * x) + w.a2 * cos(4 * pi * x));
  }
  return 0;
}

static int lower_window(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  window_plan w;
  if (window_get(g, n, &w))
    return -1;
  glow_kcall_init(kc, "glow_k_window_%s", glow_dtype_suffix(glow_out(g, n, 0)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_abi_window a = {.size = w.size, .n = glow_f2p(w.n), .a0 = glow_f2p(w.a0), .a1 = glow_f2p(w.a1),
                       .a2 = glow_f2p(w.a2)};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_HANN_WINDOW = {"HannWindow", 1, 1, 1, 1, infer_window, eval_window, lower_window};
const glow_op_info glow_op_HAMMING_WINDOW = {"HammingWindow", 1, 1, 1, 1, infer_window, eval_window, lower_window};
const glow_op_info glow_op_BLACKMAN_WINDOW = {"BlackmanWindow", 1, 1, 1, 1, infer_window, eval_window, lower_window};
