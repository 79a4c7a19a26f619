/* Det: the determinant of each square matrix in the last two axes, by LU
 * decomposition with partial pivoting, in double precision. */
#include <math.h>
#include <stdlib.h>

#include "ops/op-util.h"

static int infer_det(glow_graph *g, glow_node *n) {
  const glow_value *x = glow_in(g, n, 0);
  if (x->dt != GLOW_DT_F32 && x->dt != GLOW_DT_F64)
    return glow_node_error(g, n, "input type %s is not supported (float or double)", glow_dtype_name(x->dt));
  if (x->rank < 2 || x->dims[x->rank - 1] != x->dims[x->rank - 2])
    return glow_node_error(g, n, "the input must be [..., M, M]");
  glow_value_set_shape(glow_out(g, n, 0), x->dt, x->rank - 2, x->dims);
  return 0;
}

/* The determinant of the m x m matrix a (overwritten), by elimination with
 * full pivoting: a different route from the kernel's partial pivoting, so the
 * two check each other. */
static double det_full_pivot(double *a, int64_t m) {
  double det = 1;
  for (int64_t c = 0; c < m; c++) {
    int64_t pr = c, pc = c;
    for (int64_t r = c; r < m; r++)
      for (int64_t k = c; k < m; k++)
        if (fabs(a[r * m + k]) > fabs(a[pr * m + pc])) {
          pr = r;
          pc = k;
        }
    double piv = a[pr * m + pc];
    if (piv == 0)
      return 0;
    for (int64_t k = 0; k < m && pr != c; k++) {
      double t = a[c * m + k];
      a[c * m + k] = a[pr * m + k];
      a[pr * m + k] = t;
    }
    for (int64_t r = 0; r < m && pc != c; r++) {
      double t = a[r * m + c];
      a[r * m + c] = a[r * m + pc];
      a[r * m + pc] = t;
    }
    det *= (pr != c ? -1 : 1) * (pc != c ? -1 : 1) * piv;
    for (int64_t r = c + 1; r < m; r++) {
      double f = a[r * m + c] / piv;
      for (int64_t k = c + 1; k < m; k++)
        a[r * m + k] -= f * a[c * m + k];
    }
  }
  return det;
}

static int eval_det(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t m = x->dims[x->rank - 1], batch = glow_extent(x, 0, x->rank - 2);
  double *a = glow_xmalloc(sizeof(double) * (size_t)(m * m + 1));
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t i = 0; i < m * m; i++)
      a[i] = glow_elem_get(x->dt, ins[0], b * m * m + i);
    glow_elem_set(x->dt, outs[0], b, det_full_pivot(a, m));
  }
  free(a);
  return 0;
}

static int lower_det(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  const glow_value *x = glow_in(g, n, 0);
  int64_t m = x->dims[x->rank - 1];
  if (m > 32)
    return glow_node_error(g, n, "matrices larger than 32 x 32 are not supported (this one is %lld x %lld)",
                           (long long)m, (long long)m);
  glow_kcall_init(kc, "glow_k_det_%s", glow_dtype_suffix(x->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_det a = {.batch = glow_extent(x, 0, x->rank - 2), .m = m};
  glow_kcall_abi(kc, &a, sizeof a);
  return 0;
}

const glow_op_info glow_op_DET = {"Det", 1, 1, 1, 1, infer_det, eval_det, lower_det};
