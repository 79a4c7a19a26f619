/* Shared by the signal ops (compiler/ops/signal-*.c): one complex DFT over
 * frames of a real or complex float signal, for DFT and STFT. */
#ifndef GLOW_SIGNAL_UTIL_H
#define GLOW_SIGNAL_UTIL_H

#include "ops/op-util.h"

/* Y[o][f][k][i] (complex, [..., 2]) = sum over s < nread of w[s] X[o][f][s][i] e^(-+2 pi j k s / n),
 * k < nbins, divided by n when inverse. X (cin components: 1 real, 2 complex) is read at
 * o * x_outer + f * x_frame + s * x_sample + i * cin; w is the window (1 without). */
typedef struct glow_sig_dft {
  int64_t outer, frames, inner, cin, nread, n, nbins, inverse;
  int64_t x_outer, x_frame, x_sample;
  int window; /* the node's input holding w, or -1 */
} glow_sig_dft;

/* signal-dft.c */
/* Refuses a tensor that is not float; what names its role. Returns 0 or -1. */
int glow_sig_check_float(const glow_graph *g, const glow_node *n, const glow_value *v, const char *what);
/* Reference: out and in as the node's buffers. */
void glow_sig_dft_eval(const glow_sig_dft *d, float *y, const float *x, const float *w);
/* The call of glow_k_dft_f32. */
void glow_sig_dft_lower(const glow_sig_dft *d, const glow_node *n, glow_kcall *kc);

#endif
