/* Det: the determinant of each square matrix, by LU decomposition with
 * partial pivoting in double precision, in a stack buffer (m <= 32: 8 KiB; checked
 * by the compiler). */
#include "kernel.h"

static double fabs_d(double v) { return v < 0 ? -v : v; }

static double det_lu(double *a, int64_t m) {
  double det = 1;
  for (int64_t c = 0; c < m; c++) {
    int64_t piv = c;
    for (int64_t r = c + 1; r < m; r++)
      if (fabs_d(a[r * m + c]) > fabs_d(a[piv * m + c]))
        piv = r;
    if (a[piv * m + c] == 0)
      return 0;
    if (piv != c) {
      for (int64_t k = 0; k < m; k++) {
        double s = a[c * m + k];
        a[c * m + k] = a[piv * m + k];
        a[piv * m + k] = s;
      }
      det = -det;
    }
    det *= a[c * m + c];
    for (int64_t r = c + 1; r < m; r++) {
      double f = a[r * m + c] / a[c * m + c];
      for (int64_t k = c; k < m; k++)
        a[r * m + k] -= f * a[c * m + k];
    }
  }
  return det;
}

/* t: out, x; p: glow_abi_det. out[b] = det(x[b]) for m x m matrices. */
#define DET(NAME, T)                                                                                                   \
  GLOW_KERNEL(det_##NAME) {                                                                                            \
    T *o = (T *)t[0];                                                                                                  \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_det *ap = (const glow_abi_det *)p;                                                                  \
    int64_t batch = ap->batch, m = ap->m;                                                                              \
    double a[32 * 32];                                                                                                 \
    for (int64_t b = 0; b < batch; b++, x += m * m) {                                                                  \
      for (int64_t i = 0; i < m * m; i++)                                                                              \
        a[i] = (double)x[i];                                                                                           \
      o[b] = (T)det_lu(a, m);                                                                                          \
    }                                                                                                                  \
  }

DET(f32, float)
DET(f64, double)
