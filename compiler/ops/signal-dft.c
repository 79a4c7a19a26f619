/* DFT (opset 17): the discrete Fourier transform of a real ([..., 1]) or
 * complex ([..., 2]) float signal along `axis`, forward or inverse (divided by
 * the length), optionally onesided, over dft_length points (a compile-time
 * constant; the signal is cut or zero-padded to it). Also the DFT shared with
 * STFT. A plain O(n^2) sum, not an FFT: exact enough and simple, and the
 * signals ONNX models transform are short. */
#include <math.h>

#include "ops/signal-util.h"

int glow_sig_check_float(const glow_graph *g, const glow_node *n, const glow_value *v, const char *what) {
  if (v->dt != GLOW_DT_F32)
    return glow_node_error(g, n, "%s must be float (it is %s); other types are not supported", what,
                           glow_dtype_name(v->dt));
  return 0;
}

void glow_sig_dft_eval(const glow_sig_dft *d, float *y, const float *x, const float *w) {
  const double pi2 = 6.283185307179586;
  double sign = d->inverse ? 1 : -1, scale = d->inverse ? 1 / (double)d->n : 1;
  for (int64_t o = 0; o < d->outer; o++)
    for (int64_t f = 0; f < d->frames; f++)
      for (int64_t k = 0; k < d->nbins; k++)
        for (int64_t i = 0; i < d->inner; i++, y += 2) {
          const float *xp = x + o * d->x_outer + f * d->x_frame + i * d->cin;
          double re = 0, im = 0;
          /* ks = k s mod n */
          for (int64_t s = 0, ks = 0; s < d->nread; s++, ks = ks + k < d->n ? ks + k : ks + k - d->n) {
            const float *xs = xp + s * d->x_sample;
            double a = pi2 * (double)ks / (double)d->n, c = cos(a), sn = sign * sin(a);
            double ws = w ? w[s] : 1, xr = ws * xs[0], xi = d->cin == 2 ? ws * xs[1] : 0;
            re += xr * c - xi * sn;
            im += xr * sn + xi * c;
          }
          y[0] = (float)(re * scale);
          y[1] = (float)(im * scale);
        }
}

void glow_sig_dft_lower(const glow_sig_dft *d, const glow_node *n, glow_kcall *kc) {
  glow_kcall_init(kc, "glow_k_dft_f32");
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_kcall_tensor(kc, d->window >= 0 ? n->in[d->window] : -1);
  glow_abi_dft a = {.outer = d->outer, .frames = d->frames, .inner = d->inner, .cin = d->cin, .nread = d->nread,
                    .n = d->n, .nbins = d->nbins, .inverse = d->inverse, .x_outer = d->x_outer,
                    .x_frame = d->x_frame, .x_sample = d->x_sample};
  glow_kcall_abi(kc, &a, sizeof a);
}

/* DFT's plan; dims gets its output shape. */
static int dft_get(const glow_graph *g, const glow_node *n, glow_sig_dft *d, int64_t *dims) {
  const glow_value *x = glow_in(g, n, 0);
  if (g->opset >= 20)
    return glow_node_error(g, n, "DFT from opset %lld (axis as an input) is not supported; opset 17 is",
                           (long long)g->opset);
  if (glow_sig_check_float(g, n, x, "input"))
    return -1;
  int r = x->rank;
  if (r < 2 || (x->dims[r - 1] != 1 && x->dims[r - 1] != 2))
    return glow_node_error(g, n, "input must be [..., 1] (real) or [..., 2] (complex) with a signal axis");
  int64_t axis = glow_attr_int(n, "axis", 1);
  if (axis < 0)
    axis += r;
  if (axis < 0 || axis > r - 2)
    return glow_node_error(g, n, "axis %lld is out of range for a %d-D input (the last axis holds components)",
                           (long long)glow_attr_int(n, "axis", 1), r);
  int64_t len = x->dims[axis];
  if (glow_in(g, n, 1)) {
    if (glow_need_const_int_scalar(g, n, 1, "dft_length", 1, (int64_t)1 << 30, &len))
      return -1;
  }
  d->inverse = glow_attr_int(n, "inverse", 0) != 0;
  int onesided = glow_attr_int(n, "onesided", 0) != 0;
  d->cin = x->dims[r - 1];
  if (onesided && (d->cin == 2 || d->inverse))
    return glow_node_error(g, n, "onesided is only supported for a forward DFT of a real input");
  d->outer = glow_extent(x, 0, (int)axis);
  d->frames = 1;
  d->inner = glow_extent(x, (int)axis + 1, r - 1);
  d->n = len;
  d->nread = len < x->dims[axis] ? len : x->dims[axis];
  d->nbins = onesided ? len / 2 + 1 : len;
  d->x_sample = d->inner * d->cin;
  d->x_outer = x->dims[axis] * d->x_sample;
  d->x_frame = 0;
  d->window = -1;
  for (int i = 0; i < r; i++)
    dims[i] = x->dims[i];
  dims[axis] = d->nbins;
  dims[r - 1] = 2;
  return 0;
}

static int infer_dft(glow_graph *g, glow_node *n) {
  glow_sig_dft d = {0};
  int64_t dims[GLOW_MAX_RANK];
  if (dft_get(g, n, &d, dims))
    return -1;
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_F32, glow_in(g, n, 0)->rank, dims);
  return 0;
}

static int eval_dft(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  glow_sig_dft d = {0};
  int64_t dims[GLOW_MAX_RANK];
  if (dft_get(g, n, &d, dims))
    return -1;
  glow_sig_dft_eval(&d, outs[0], ins[0], NULL);
  return 0;
}

static int lower_dft(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_sig_dft d = {0};
  int64_t dims[GLOW_MAX_RANK];
  if (dft_get(g, n, &d, dims))
    return -1;
  glow_sig_dft_lower(&d, n, kc);
  return 0;
}

const glow_op_info glow_op_DFT = {"DFT", 1, 2, 1, 1, infer_dft, eval_dft, lower_dft};
