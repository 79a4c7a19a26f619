/* Einsum as nested loops over labels: the output's outside, the summed inside.
 * t: Y, X0, X1, ... (up to 4); p: glow_abi_einsum
 * (labels 0..nout-1 are the output's in its order; stride 0 where an input
 * lacks a label; a repeated label's strides are summed). */
#include "kernel.h"

#define EINSUM(SUF, T)                                                                                                 \
  GLOW_KERNEL(einsum_##SUF) {                                                                                          \
    T *y = (T *)t[0];                                                                                                  \
    const glow_abi_einsum *ap = (const glow_abi_einsum *)p;                                                            \
    int64_t nin = ap->nin, nl = ap->nl, nout = ap->nout;                                                               \
    const int64_t *size = ap->size, *stride = GLOW_ABI_EINSUM_STRIDES(ap);                                             \
    int64_t idx[12] = {0}, off[4] = {0};                                                                               \
    int64_t ytotal = 1;                                                                                                \
    for (int64_t j = 0; j < nout; j++)                                                                                 \
      ytotal *= size[j];                                                                                               \
    for (int64_t yi = 0; yi < ytotal; yi++) {                                                                          \
      T acc = 0;                                                                                                       \
      for (;;) {                                                                                                       \
        T prod = 1;                                                                                                    \
        for (int64_t i = 0; i < nin; i++)                                                                              \
          prod *= ((const T *)t[1 + i])[off[i]];                                                                       \
        acc += prod;                                                                                                   \
        int64_t j = nl - 1;                                                                                            \
        for (; j >= nout; j--) {                                                                                       \
          for (int64_t i = 0; i < nin; i++)                                                                            \
            off[i] += stride[i * nl + j];                                                                              \
          if (++idx[j] < size[j])                                                                                      \
            break;                                                                                                     \
          for (int64_t i = 0; i < nin; i++)                                                                            \
            off[i] -= stride[i * nl + j] * size[j];                                                                    \
          idx[j] = 0;                                                                                                  \
        }                                                                                                              \
        if (j < nout)                                                                                                  \
          break;                                                                                                       \
      }                                                                                                                \
      y[yi] = acc;                                                                                                     \
      for (int64_t j = nout - 1; j >= 0; j--) {                                                                        \
        for (int64_t i = 0; i < nin; i++)                                                                              \
          off[i] += stride[i * nl + j];                                                                                \
        if (++idx[j] < size[j])                                                                                        \
          break;                                                                                                       \
        for (int64_t i = 0; i < nin; i++)                                                                              \
          off[i] -= stride[i * nl + j] * size[j];                                                                      \
        idx[j] = 0;                                                                                                    \
      }                                                                                                                \
    }                                                                                                                  \
  }

EINSUM(f32, float)
EINSUM(f64, double)
EINSUM(i32, int32_t)
EINSUM(i64, int64_t)
