/* NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss over input [N, C, D] (D: the trailing axes
 * collapsed) and integer targets [N, D].
 *
 * nll_loss: t: out, input, target, weight (NULL if omitted)
 * sce_loss: t: out, log_prob (NULL if omitted), scores, labels, weight (NULL if omitted)
 * p: glow_abi_loss
 * A target equal to ignore_index, or outside [0, C), contributes nothing (and no weight to the mean).
 * Reductions accumulate in double. SCE takes log-probabilities as (x - m) - log(sum(exp(x - m))). */
#include "kernel.h"
#include "kmath.h"

#define LOSS(NAME, T, TI, EXP, LOG, SCE)                                                                       \
  GLOW_KERNEL(NAME) {                                                                                          \
    T *o = (T *)t[0], *lp = SCE ? (T *)t[1] : (T *)0;                                                          \
    const T *x = (const T *)t[1 + SCE], *wt = (const T *)t[3 + SCE];                                           \
    const TI *y = (const TI *)t[2 + SCE];                                                                      \
    const glow_abi_loss *ap = (const glow_abi_loss *)p;                                                        \
    int64_t N = ap->N, C = ap->C, D = ap->D, red = ap->reduction, has_w = ap->has_weight;                      \
    int64_t has_ii = ap->has_ignore_index, ii = ap->ignore_index;                                              \
    double total = 0, wsum = 0;                                                                                \
    for (int64_t i = 0; i < N; i++)                                                                            \
      for (int64_t d = 0; d < D; d++) {                                                                        \
        const T *xi = x + i * C * D + d;                                                                       \
        int64_t c = (int64_t)y[i * D + d];                                                                     \
        T m = 0, ls = 0;                                                                                       \
        if (SCE && C > 0) {                                                                                    \
          T s = 0;                                                                                             \
          m = xi[0];                                                                                           \
          for (int64_t k = 1; k < C; k++)                                                                      \
            m = xi[k * D] > m ? xi[k * D] : m;                                                                 \
          for (int64_t k = 0; k < C; k++)                                                                      \
            s += EXP(xi[k * D] - m);                                                                           \
          ls = LOG(s);                                                                                         \
          if (lp)                                                                                              \
            for (int64_t k = 0; k < C; k++)                                                                    \
              lp[i * C * D + d + k * D] = (xi[k * D] - m) - ls;                                                \
        }                                                                                                      \
        T l = 0, w = 0;                                                                                        \
        if (!(has_ii && c == ii) && c >= 0 && c < C) {                                                         \
          w = has_w ? wt[c] : (T)1;                                                                            \
          l = -w * ((xi[c * D] - m) - ls);                                                                     \
        }                                                                                                      \
        if (red == 0)                                                                                          \
          o[i * D + d] = l;                                                                                    \
        total += l;                                                                                            \
        wsum += w;                                                                                             \
      }                                                                                                        \
    if (red != 0)                                                                                              \
      o[0] = (T)(red == 2 ? total / wsum : total);                                                             \
  }

LOSS(nll_loss_f32_i32, float, int32_t, glow_expf, glow_logf, 0)
LOSS(nll_loss_f32_i64, float, int64_t, glow_expf, glow_logf, 0)
LOSS(nll_loss_f64_i32, double, int32_t, glow_exp, glow_log, 0)
LOSS(nll_loss_f64_i64, double, int64_t, glow_exp, glow_log, 0)
LOSS(sce_loss_f32_i32, float, int32_t, glow_expf, glow_logf, 1)
LOSS(sce_loss_f32_i64, float, int64_t, glow_expf, glow_logf, 1)
LOSS(sce_loss_f64_i32, double, int32_t, glow_exp, glow_log, 1)
LOSS(sce_loss_f64_i64, double, int64_t, glow_exp, glow_log, 1)
