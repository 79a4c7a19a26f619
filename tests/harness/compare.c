/* Output comparison shared by the test drivers. */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int glow_test_tolerance(int argc, char **argv, glow_tolerance *t) {
  for (int i = 0; i < argc; i += 2) {
    if (i + 1 >= argc) {
      fprintf(stderr, "missing value after %s\n", argv[i]);
      return -1;
    }
    if (!strcmp(argv[i], "-rtol"))
      t->rtol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "-atol"))
      t->atol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "-max-rel"))
      t->max_rel = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "-int-tol"))
      t->int_tol = atoll(argv[i + 1]);
    else {
      fprintf(stderr, "unknown option %s\n", argv[i]);
      return -1;
    }
  }
  return 0;
}

int glow_test_dtype_ok(glow_dtype model, glow_dtype data) {
  return model == data || (model == GLOW_DT_BF16 && data == GLOW_DT_U16);
}

int glow_test_compare(const char *name, glow_dtype dt, int64_t n, const void *got, const glow_tensor *want,
                      const glow_tolerance *t) {
  int64_t wn = 1;
  for (int d = 0; d < want->rank; d++)
    wn *= want->dims[d];
  if (!glow_test_dtype_ok(dt, want->dt) || wn != n) {
    printf("output %s: expected %s with %lld elements, got %s with %lld MISMATCH\n", name, glow_dtype_name(want->dt),
           (long long)wn, glow_dtype_name(dt), (long long)n);
    return 1;
  }
  double max_abs = 0, max_ref = 0;
  int64_t bad = 0, first_bad = -1;
  for (int64_t i = 0; i < n; i++) {
    int mismatch;
    if (glow_dtype_is_float(dt)) {
      double a = glow_elem_get(dt, got, i), b = glow_elem_get(dt, want->data, i); /* want read as dt */
      if (isnan(b) || isinf(b)) {
        mismatch = isnan(b) ? !isnan(a) : a != b;
      } else {
        mismatch = t->max_rel < 0 && !(fabs(a - b) <= t->atol + t->rtol * fabs(b));
        max_abs = fmax(max_abs, isnan(a) ? INFINITY : fabs(a - b));
        max_ref = fmax(max_ref, fabs(b));
      }
    } else {
      int64_t a = glow_elem_geti(dt, got, i), b = glow_elem_geti(want->dt, want->data, i);
      uint64_t diff = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a; /* no int64 overflow */
      mismatch = dt == GLOW_DT_BOOL ? a != b : diff > (uint64_t)t->int_tol;
      max_abs = fmax(max_abs, fabs((double)a - (double)b));
      max_ref = fmax(max_ref, fabs((double)b));
    }
    if (mismatch && first_bad < 0)
      first_bad = i;
    bad += mismatch;
  }
  double rel = max_ref > 0 ? max_abs / max_ref : max_abs;
  if (t->max_rel >= 0 && glow_dtype_is_float(dt) && !(rel <= t->max_rel))
    bad++;
  printf("output %s: %lld elements, max abs error %.3g, max relative error %.3g%s\n", name, (long long)n, max_abs, rel,
         bad ? " MISMATCH" : "");
  if (first_bad >= 0)
    printf("  first mismatch at %lld: got %.9g, want %.9g\n", (long long)first_bad, glow_elem_get(dt, got, first_bad),
           glow_elem_get(dt, want->data, first_bad));
  return bad != 0;
}
