#include "kernel.h"
#include "kmath.h"

/* t: out, in; p: outer, len, inner (softmax over the middle extent) */
GLOW_KERNEL(softmax_f32) {
  float *o = (float *)t[0];
  const float *x = (const float *)t[1];
  int64_t outer = p[0], len = p[1], inner = p[2];
  for (int64_t a = 0; a < outer; a++)
    for (int64_t c = 0; c < inner; c++) {
      const float *xi = x + a * len * inner + c;
      float *oi = o + a * len * inner + c;
      float mx = xi[0], sum = 0.0f;
      for (int64_t k = 1; k < len; k++)
        mx = xi[k * inner] > mx ? xi[k * inner] : mx;
      for (int64_t k = 0; k < len; k++) {
        oi[k * inner] = glow_expf(xi[k * inner] - mx);
        sum += oi[k * inner];
      }
      for (int64_t k = 0; k < len; k++)
        oi[k * inner] /= sum;
    }
}
