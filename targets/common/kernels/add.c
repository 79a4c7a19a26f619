#include "kernel.h"

/* t: out, a, b; p: rank, dims[rank], a_strides[rank], b_strides[rank] (0 where broadcast) */
GLOW_KERNEL(add_f32) {
  float *o = (float *)t[0];
  const float *a = (const float *)t[1], *b = (const float *)t[2];
  int64_t r = p[0];
  const int64_t *dims = p + 1, *as = p + 1 + r, *bs = p + 1 + 2 * r;
  int64_t idx[8] = {0}, n = 1;
  for (int64_t d = 0; d < r; d++)
    n *= dims[d];
  int64_t ao = 0, bo = 0;
  for (int64_t i = 0; i < n; i++) {
    o[i] = a[ao] + b[bo];
    for (int64_t d = r - 1; d >= 0; d--) {
      ao += as[d];
      bo += bs[d];
      if (++idx[d] < dims[d])
        break;
      ao -= as[d] * dims[d];
      bo -= bs[d] * dims[d];
      idx[d] = 0;
    }
  }
}
