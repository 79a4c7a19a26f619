/* ConvTranspose: N x C x D1.. input, C x M/group x K1.. weights. */
#include "ops/nn-util.h"

typedef struct {
  int64_t N, C, M, G, Cg, Mg;
  glow_nn_win w;
} convt_shape;

static int convt_get(const glow_graph *g, const glow_node *n, convt_shape *c) {
  const glow_value *x = glow_in(g, n, 0), *w = glow_in(g, n, 1), *b = glow_in(g, n, 2);
  char s1[128], s2[128];
  if (x->dt != w->dt || (x->dt != GLOW_DT_F32 && x->dt != GLOW_DT_F64))
    return glow_node_error(g, n, "input types %s and %s are not supported (float or double, the same for X and W)",
                           glow_dtype_name(x->dt), glow_dtype_name(w->dt));
  if (w->rank != x->rank)
    return glow_node_error(g, n, "X %s and W %s must have the same rank", glow_shape_str(x, s1, sizeof s1),
                           glow_shape_str(w, s2, sizeof s2));
  c->N = x->dims[0];
  c->C = x->dims[1];
  c->G = glow_attr_int(n, "group", 1);
  if (c->G < 1 || c->C % c->G || w->dims[0] != c->C)
    return glow_node_error(g, n, "X %s and W %s do not match for group=%lld", glow_shape_str(x, s1, sizeof s1),
                           glow_shape_str(w, s2, sizeof s2), (long long)c->G);
  c->Cg = c->C / c->G;
  c->Mg = w->dims[1];
  c->M = c->Mg * c->G;
  if (b && (b->dt != x->dt || b->rank != 1 || b->dims[0] != c->M))
    return glow_node_error(g, n, "B must be a %s vector of %lld elements", glow_dtype_name(x->dt), (long long)c->M);
  return glow_nn_win_get_transposed(g, n, x, w->dims + 2, &c->w);
}

static int infer_convt(glow_graph *g, glow_node *n) {
  convt_shape c;
  if (convt_get(g, n, &c))
    return -1;
  int64_t dims[5] = {c.N, c.M};
  for (int i = 0; i < c.w.nsp; i++)
    dims[2 + i] = c.w.out[i];
  glow_value_set_shape(glow_out(g, n, 0), glow_in(g, n, 0)->dt, c.w.nsp + 2, dims);
  return 0;
}

/* Reference: every output as a sum over the inputs and taps that reach it. */
static int eval_convt(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  convt_shape c;
  if (convt_get(g, n, &c))
    return -1;
  const glow_nn_win *w = &c.w;
  glow_dtype dt = glow_in(g, n, 0)->dt;
  int nsp = w->nsp;
  int64_t isz = 1, osz = 1, ksz = 1;
  for (int i = 0; i < nsp; i++) {
    isz *= w->in[i];
    osz *= w->out[i];
    ksz *= w->k[i];
  }
  for (int64_t nn = 0; nn < c.N; nn++)
    for (int64_t m = 0; m < c.M; m++) {
      int64_t grp = m / c.Mg, mi = m % c.Mg, op[3] = {0};
      do {
        double acc = glow_in(g, n, 2) ? glow_elem_get(dt, ins[2], m) : 0;
        for (int64_t ci = 0; ci < c.Cg; ci++) {
          int64_t cc = grp * c.Cg + ci, kp[3] = {0};
          do {
            int64_t ip[3], ok = 1;
            for (int i = 0; i < nsp; i++) {
              int64_t num = op[i] + w->pb[i] - kp[i] * w->d[i];
              ip[i] = num / w->s[i];
              ok &= num >= 0 && num % w->s[i] == 0 && ip[i] < w->in[i];
            }
            if (ok)
              acc += glow_elem_get(dt, ins[0], (nn * c.C + cc) * isz + glow_nn_win_offset(nsp, w->in, ip)) *
                     glow_elem_get(dt, ins[1], (cc * c.Mg + mi) * ksz + glow_nn_win_offset(nsp, w->k, kp));
          } while (glow_nn_win_next(nsp, w->k, kp));
        }
        glow_elem_set(dt, outs[0], (nn * c.M + m) * osz + glow_nn_win_offset(nsp, w->out, op), acc);
      } while (glow_nn_win_next(nsp, w->out, op));
    }
  return 0;
}

static int lower_convt(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  convt_shape c;
  if (convt_get(g, n, &c))
    return -1;
  /* float32: the register-blocked kernel (per (channel, tap) row of W^T). */
  glow_dtype dt = glow_in(g, n, 0)->dt;
  glow_kcall_init(kc, "glow_k_conv_transpose_%s%s", dt == GLOW_DT_F32 ? "fast_" : "", glow_dtype_suffix(dt));
  glow_kcall_tensor(kc, n->out[0]);
  for (int i = 0; i < 3; i++)
    glow_kcall_tensor(kc, i < n->nin ? n->in[i] : -1);
  glow_abi_conv a = {.N = c.N, .G = c.G, .Cg = c.Cg, .Mg = c.Mg, .w = glow_nn_win_abi(&c.w)};
  glow_kcall_abi(kc, &a, offsetof(glow_abi_conv, epi));
  return 0;
}

const glow_op_info glow_op_CONV_TRANSPOSE = {"ConvTranspose", 2, 3, 1, 1, infer_convt, eval_convt, lower_convt};
