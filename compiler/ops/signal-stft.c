/* STFT (opset 17): the DFT of every frame_length-sample frame of a [batch,
 * length, 1 or 2] float signal, frames frame_step apart, each multiplied by
 * the window when there is one; onesided (the default) keeps the first
 * frame_length / 2 + 1 bins. frame_step and frame_length must be compile-time
 * constants (they give the output's shape); the window need not be. */
#include "ops/signal-util.h"

static int stft_get(const glow_graph *g, const glow_node *n, glow_sig_dft *d) {
  const glow_value *x = glow_in(g, n, 0), *win = glow_in(g, n, 2);
  int64_t step, len = -1;
  if (glow_sig_check_float(g, n, x, "signal") || (win && glow_sig_check_float(g, n, win, "window")))
    return -1;
  if (x->rank != 3 || (x->dims[2] != 1 && x->dims[2] != 2))
    return glow_node_error(g, n, "signal must be [batch, length, 1] (real) or [batch, length, 2] (complex)");
  const int64_t big = (int64_t)1 << 30;
  if (glow_need_const_int_scalar(g, n, 1, "frame_step", 1, big, &step) ||
      (glow_in(g, n, 3) && glow_need_const_int_scalar(g, n, 3, "frame_length", 1, big, &len)))
    return -1;
  if (win && win->rank != 1)
    return glow_node_error(g, n, "window must be 1-D");
  if (win && len >= 0 && win->dims[0] != len)
    return glow_node_error(g, n, "window has %lld samples but frame_length is %lld", (long long)win->dims[0],
                           (long long)len);
  if (win)
    len = win->dims[0];
  if (len < 0)
    return glow_node_error(g, n, "either a window or frame_length is needed to give the frame length");
  if (len > x->dims[1])
    return glow_node_error(g, n, "frame_length %lld is longer than the signal (%lld samples)", (long long)len,
                           (long long)x->dims[1]);
  int onesided = glow_attr_int(n, "onesided", 1) != 0;
  d->cin = x->dims[2];
  if (onesided && d->cin == 2)
    return glow_node_error(g, n, "onesided (the default) needs a real signal; set onesided=0 for a complex one");
  d->outer = x->dims[0];
  d->frames = (x->dims[1] - len) / step + 1;
  d->inner = 1;
  d->n = d->nread = len;
  d->nbins = onesided ? len / 2 + 1 : len;
  d->inverse = 0;
  d->x_outer = x->dims[1] * d->cin;
  d->x_frame = step * d->cin;
  d->x_sample = d->cin;
  d->window = win ? 2 : -1;
  return 0;
}

static int infer_stft(glow_graph *g, glow_node *n) {
  glow_sig_dft d = {0};
  if (stft_get(g, n, &d))
    return -1;
  int64_t dims[4] = {d.outer, d.frames, d.nbins, 2};
  glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_F32, 4, dims);
  return 0;
}

static int eval_stft(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  glow_sig_dft d = {0};
  if (stft_get(g, n, &d))
    return -1;
  glow_sig_dft_eval(&d, outs[0], ins[0], d.window >= 0 ? ins[d.window] : NULL);
  return 0;
}

static int lower_stft(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_sig_dft d = {0};
  if (stft_get(g, n, &d))
    return -1;
  glow_sig_dft_lower(&d, n, kc);
  return 0;
}

const glow_op_info glow_op_STFT = {"STFT", 2, 4, 1, 1, infer_stft, eval_stft, lower_stft};
