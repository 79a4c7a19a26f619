/* The numbers of quantization (used by quantize.c): scales and zero points of
 * activations under Glow's schemas, symmetric weights and int32 biases (or
 * biases on an int8 or int16 grid first), for int8 and
 * (-quantization-precision=Int16) int16. */
#include <math.h>

#include "quant/quant.h"

/* The integer range of a quantized dtype: int8 or int16. */
static void qrange(glow_dtype dt, double *lo, double *hi) {
  *lo = dt == GLOW_DT_I16 ? -32768.0 : -128.0;
  *hi = dt == GLOW_DT_I16 ? 32767.0 : 127.0;
}

void glow_quant_params(float lo, float hi, glow_quant_schema s, glow_dtype dt, float *scale, int *zp) {
  double qlo, qhi;
  qrange(dt, &qlo, &qhi);
  float levels = (float)(qhi - qlo); /* 255 or 65535 steps */
  lo = lo < 0.0f ? lo : 0.0f; /* zero must be exact: padding, Relu */
  hi = hi > 0.0f ? hi : 0.0f;
  if (s == GLOW_QUANT_SYMMETRIC_UINT8 && lo == 0.0f) {
    *scale = hi / levels;
    *zp = (int)qlo;
  } else if (s == GLOW_QUANT_ASYMMETRIC) {
    *scale = (hi - lo) / levels;
    double z = *scale > 0.0f ? qlo - nearbyint((double)lo / (double)*scale) : 0.0;
    *zp = (int)(z < qlo ? qlo : z > qhi ? qhi : z);
  } else {
    float a = -lo > hi ? -lo : hi;
    *scale = 2.0f * a / levels;
    *zp = 0;
    if (s == GLOW_QUANT_SYMMETRIC_POW2 && *scale > 0.0f)
      *scale = ldexpf(1.0f, (int)ceil(log2((double)*scale)));
  }
  if (!(*scale > 0.0f)) { /* a value that is always 0 */
    *scale = 1.0f;
    *zp = 0;
  }
}

void glow_quant_weights(const float *w, int64_t rows, int64_t per, int channelwise, float limit, glow_dtype dt,
                        void *wq, float *scales) {
  double qmax = dt == GLOW_DT_I16 ? 32767.0 : 127.0; /* symmetric: -qmax .. qmax */
  for (int64_t r = 0; r < rows; r++) {
    float a = 0.0f;
    for (int64_t i = channelwise ? r * per : 0; i < (channelwise ? (r + 1) * per : rows * per); i++)
      a = fabsf(w[i]) > a ? fabsf(w[i]) : a;
    if (!channelwise && limit > 0.0f && limit < a)
      a = limit;
    scales[r] = a > 0.0f ? a / (float)qmax : 1.0f;
    if (!channelwise) {
      for (int64_t k = 1; k < rows; k++)
        scales[k] = scales[0];
      break;
    }
  }
  for (int64_t r = 0; r < rows; r++)
    for (int64_t i = 0; i < per; i++) {
      double v = nearbyint((double)w[r * per + i] / (double)scales[r]);
      v = v < -qmax ? -qmax : v > qmax ? qmax : v;
      if (dt == GLOW_DT_I16)
        ((int16_t *)wq)[r * per + i] = (int16_t)v;
      else
        ((int8_t *)wq)[r * per + i] = (int8_t)v;
    }
}

void glow_quant_bias_grid(const float *b, int64_t n, glow_quant_schema s, glow_dtype dt, float *out) {
  float lo = 0.0f, hi = 0.0f, scale;
  int zp;
  double qlo, qhi;
  qrange(dt, &qlo, &qhi);
  for (int64_t i = 0; i < n; i++) {
    lo = b[i] < lo ? b[i] : lo;
    hi = b[i] > hi ? b[i] : hi;
  }
  glow_quant_params(lo, hi, s, dt, &scale, &zp);
  for (int64_t i = 0; i < n; i++) {
    double q = nearbyint((double)b[i] / (double)scale) + zp;
    q = q < qlo ? qlo : q > qhi ? qhi : q;
    out[i] = (float)((q - zp) * (double)scale);
  }
}

int64_t glow_quant_bias(const float *b, int64_t m, float xs, const float *ws, int32_t *bq) {
  int64_t saturated = 0;
  for (int64_t k = 0; k < m; k++) {
    double v = nearbyint((double)b[k] / ((double)xs * (double)ws[k]));
    saturated += v < -2147483647.0 || v > 2147483647.0;
    bq[k] = (int32_t)(v < -2147483647.0 ? -2147483647.0 : v > 2147483647.0 ? 2147483647.0 : v);
  }
  return saturated;
}
