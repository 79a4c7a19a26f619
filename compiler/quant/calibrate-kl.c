/* Entropy calibration (-quantization-calibration=KL): instead of a value's whole
 * [min, max], the symmetric clipping threshold T whose 8-bit quantization keeps
 * most of the distribution, measured by KL divergence (as in TensorRT's entropy
 * calibrator). The profile's histogram is folded to |x| first; for each candidate
 * T the reference P is the histogram up to T with the clipped tail added to its
 * last bin, and Q is the histogram up to T (without the tail) merged into 128
 * levels (128 when the range has both signs: one sign of int8; 255 for a one-sided
 * range on an asymmetric int8 scale) and spread back over the bins that were not empty;
 * a tight T costs in P's last bin, a loose one in Q's coarse levels. A histogram
 * of fewer bins than int8 has steps (255; Glow's tools write 10 by default) says
 * too little about the tail to clip it: its range stays as profiled, as Glow's
 * optimizeKL leaves it. Weights (-calibrate-constants) get a histogram of their
 * own values first. */
#include <math.h>
#include <stdlib.h>

#include "quant/quant.h"


static double kl_divergence(const double *a, int nb, int t, int levels) {
  double *p = glow_xmalloc(sizeof(double) * (size_t)t), *q = glow_xcalloc((size_t)t, sizeof(double));
  double tail = 0.0, ps = 0.0, qs = 0.0;
  for (int i = t; i < nb; i++)
    tail += a[i];
  for (int i = 0; i < t; i++)
    p[i] = a[i];
  p[t - 1] += tail;
  for (int l = 0; l < levels; l++) {
    int b0 = (int)((long)l * t / levels), b1 = (int)((long)(l + 1) * t / levels);
    double sum = 0.0;
    int nonzero = 0;
    for (int i = b0; i < b1; i++) { /* Q from the histogram as sliced: without the clipped tail */
      sum += a[i];
      nonzero += a[i] > 0.0;
    }
    for (int i = b0; i < b1; i++)
      q[i] = a[i] > 0.0 ? sum / nonzero : 0.0;
  }
  for (int i = 0; i < t; i++) {
    ps += p[i];
    qs += q[i];
  }
  double kl = 0.0;
  for (int i = 0; i < t && ps > 0.0 && qs > 0.0; i++)
    if (p[i] > 0.0)
      kl += p[i] / ps * log((p[i] / ps) / (q[i] > 0.0 ? q[i] / qs : 1e-12));
  free(p);
  free(q);
  return kl;
}

void glow_quant_kl_range(const glow_profile_entry *e, int levels, float *lo, float *hi) {
  double amax = fabs(e->min) > fabs(e->max) ? fabs(e->min) : fabs(e->max);
  *lo = e->min;
  *hi = e->max;
  if (!(amax > 0.0) || e->nbins < GLOW_KL_MIN_BINS)
    return;
  /* |x| on the profile's own bins: as is for a one-sided range, else folded by bin centre. */
  int nb = e->nbins;
  double *a = glow_xcalloc((size_t)nb, sizeof(double));
  double w = ((double)e->max - (double)e->min) / nb;
  for (int i = 0; i < nb; i++) {
    int k = i;
    if (e->min < 0.0f) {
      double center = fabs((double)e->min + (i + 0.5) * w);
      k = (int)(center / amax * nb);
    }
    a[k < nb ? k : nb - 1] += e->hist[i];
  }
  int best = nb, step = nb / 256 > 1 ? nb / 256 : 1;
  double best_kl = INFINITY;
  for (int t = levels; t <= nb; t += step) {
    double kl = kl_divergence(a, nb, t, levels);
    if (kl < best_kl) { /* ties keep the smaller threshold: finer steps for the mass */
      best_kl = kl;
      best = t;
    }
  }
  free(a);
  double th = (double)best / nb * amax;
  *lo = (double)e->min < -th ? (float)-th : e->min;
  *hi = (double)e->max > th ? (float)th : e->max;
}

float glow_quant_kl_weights(const float *w, int64_t n) {
  glow_profile_entry e = {NULL, 0.0f, 0.0f, GLOW_PROFILE_BINS, glow_xcalloc(GLOW_PROFILE_BINS, sizeof(double))};
  for (int64_t i = 0; i < n; i++) {
    e.min = w[i] < e.min ? w[i] : e.min;
    e.max = w[i] > e.max ? w[i] : e.max;
  }
  double width = ((double)e.max - e.min) / GLOW_PROFILE_BINS;
  for (int64_t i = 0; i < n && width > 0.0; i++) {
    int64_t b = (int64_t)((w[i] - (double)e.min) / width);
    e.hist[b < GLOW_PROFILE_BINS ? b : GLOW_PROFILE_BINS - 1] += 1.0;
  }
  float lo, hi;
  glow_quant_kl_range(&e, 128, &lo, &hi); /* weights are symmetric: 128 steps a side */
  free(e.hist);
  return -lo > hi ? -lo : hi;
}
