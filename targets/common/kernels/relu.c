#include "kernel.h"

/* t: out, in; p: n */
GLOW_KERNEL(relu_f32) {
  float *o = (float *)t[0];
  const float *x = (const float *)t[1];
  for (int64_t i = 0; i < p[0]; i++)
    o[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
