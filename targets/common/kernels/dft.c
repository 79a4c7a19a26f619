/* DFT and STFT: a plain O(n^2) complex DFT over frames of a float signal (the
 * transforms ONNX models take are short), in double like the reference in
 * compiler/ops/signal-dft.c. */
#include "kernel.h"
#include "kmath.h"

/* t: out [outer][frames][nbins][inner][2], x, window [nread] (NULL: none);
 * p: glow_abi_dft.
 * out[o][f][k][i] = sum over s < nread of w[s] x[o * x_outer + f * x_frame + s * x_sample + i * cin]
 * e^(-+2 pi j k s / n), divided by n when inverse. */
GLOW_KERNEL(dft_f32) {
  float *y = (float *)t[0];
  const float *x = (const float *)t[1], *w = (const float *)t[2];
  const glow_abi_dft *ap = (const glow_abi_dft *)p;
  int64_t outer = ap->outer, frames = ap->frames, inner = ap->inner, cin = ap->cin, nread = ap->nread, n = ap->n;
  int64_t nbins = ap->nbins, xo = ap->x_outer, xf = ap->x_frame, xs = ap->x_sample;
  double sign = ap->inverse ? 1 : -1, scale = ap->inverse ? 1 / (double)n : 1;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t f = 0; f < frames; f++)
      for (int64_t k = 0; k < nbins; k++)
        for (int64_t i = 0; i < inner; i++, y += 2) {
          const float *xp = x + o * xo + f * xf + i * cin;
          double re = 0, im = 0;
          for (int64_t s = 0, ks = 0; s < nread; s++, ks = ks + k < n ? ks + k : ks + k - n) { /* ks = k s mod n */
            double a = 6.283185307179586 * (double)ks / (double)n, c = glow_cos(a), sn = sign * glow_sin(a);
            double ws = w ? w[s] : 1, xr = ws * xp[s * xs], xi = cin == 2 ? ws * xp[s * xs + 1] : 0;
            re += xr * c - xi * sn;
            im += xr * sn + xi * c;
          }
          y[0] = (float)(re * scale);
          y[1] = (float)(im * scale);
        }
}
