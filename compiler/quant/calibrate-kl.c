/* Entropy calibration (-quantization-calibration=KL): instead of a value's whole
 * [min, max], the symmetric clipping threshold T whose 8-bit quantization keeps
 * most of the distribution, measured by KL divergence (as in TensorRT's entropy
 * calibrator). The profile's histogram is folded to |x| first; for each candidate
 * T the reference P is the histogram up to T with the clipped tail added to its
 * last bin, and Q is P merged into 128 levels (one sign of int8) and spread back
 * over the bins that were not empty. */
#include <math.h>
#include <stdlib.h>

#include "quant/quant.h"

#define KL_BINS 2048
#define KL_LEVELS 128

static double kl_divergence(const double *a, int t) {
  double *p = glow_xmalloc(sizeof(double) * (size_t)t), *q = glow_xcalloc((size_t)t, sizeof(double));
  double tail = 0.0, ps = 0.0, qs = 0.0;
  for (int i = t; i < KL_BINS; i++)
    tail += a[i];
  for (int i = 0; i < t; i++)
    p[i] = a[i];
  p[t - 1] += tail;
  for (int l = 0; l < KL_LEVELS; l++) {
    int b0 = (int)((long)l * t / KL_LEVELS), b1 = (int)((long)(l + 1) * t / KL_LEVELS);
    double sum = 0.0;
    int nonzero = 0;
    for (int i = b0; i < b1; i++) {
      sum += p[i];
      nonzero += p[i] > 0.0;
    }
    for (int i = b0; i < b1; i++)
      q[i] = p[i] > 0.0 ? sum / nonzero : 0.0;
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

void glow_quant_kl_range(const glow_profile_entry *e, float *lo, float *hi) {
  double amax = fabs(e->min) > fabs(e->max) ? fabs(e->min) : fabs(e->max);
  *lo = e->min;
  *hi = e->max;
  if (!(amax > 0.0) || e->nbins <= 0)
    return;
  double *a = glow_xcalloc(KL_BINS, sizeof(double));
  double w = ((double)e->max - (double)e->min) / e->nbins;
  for (int i = 0; i < e->nbins; i++) {
    double center = fabs((double)e->min + (i + 0.5) * w);
    int k = (int)(center / amax * KL_BINS);
    a[k < KL_BINS ? k : KL_BINS - 1] += e->hist[i];
  }
  int best = KL_BINS;
  double best_kl = INFINITY;
  for (int t = KL_LEVELS; t <= KL_BINS; t += 8) {
    double kl = kl_divergence(a, t);
    if (kl < best_kl) { /* ties keep the smaller threshold: finer steps for the mass */
      best_kl = kl;
      best = t;
    }
  }
  free(a);
  double th = (double)best / KL_BINS * amax;
  *lo = (double)e->min < -th ? (float)-th : e->min;
  *hi = (double)e->max > th ? (float)th : e->max;
}
