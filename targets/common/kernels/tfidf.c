/* TfIdfVectorizer over integer tokens (compiler/ops/text-tfidf.c has the
 * semantics): for each pool entry, its occurrences in each row. */
#include "kernel.h"

/* t: out (float [rows, nout]), x (tokens [rows, cols]); p: glow_abi_tfidf. */
#define TFIDF(NAME, T)                                                                                                 \
  GLOW_KERNEL(tfidf_##NAME) {                                                                                          \
    float *o = (float *)t[0];                                                                                          \
    const T *x = (const T *)t[1];                                                                                      \
    const glow_abi_tfidf *ap = (const glow_abi_tfidf *)p;                                                              \
    int64_t rows = ap->rows, cols = ap->cols, nout = ap->nout, mode = ap->mode, min_n = ap->min_n;                     \
    int64_t max_n = ap->max_n, max_skip = ap->max_skip;                                                                \
    const int64_t *ent = ap->entries, *w = GLOW_ABI_TFIDF_WEIGHTS(ap);                                                 \
    for (int64_t i = 0; i < rows * nout; i++)                                                                          \
      o[i] = 0;                                                                                                        \
    for (int64_t e = 0; e < ap->nwords; e += 2 + ent[e]) {                                                             \
      int64_t n = ent[e], out = ent[e + 1];                                                                            \
      if (n < min_n || n > max_n)                                                                                      \
        continue;                                                                                                      \
      for (int64_t r = 0; r < rows; r++) {                                                                             \
        const T *row = x + r * cols;                                                                                   \
        int64_t count = 0;                                                                                             \
        for (int64_t gap = 1; gap <= (n == 1 ? 1 : max_skip + 1); gap++)                                               \
          for (int64_t s = 0; s + (n - 1) * gap < cols; s++) {                                                         \
            int64_t j = 0;                                                                                             \
            while (j < n && (int64_t)row[s + j * gap] == ent[e + 2 + j])                                               \
              j++;                                                                                                     \
            count += j == n;                                                                                           \
          }                                                                                                            \
        o[r * nout + out] += (float)count;                                                                             \
      }                                                                                                                \
    }                                                                                                                  \
    for (int64_t r = 0; r < rows; r++)                                                                                 \
      for (int64_t i = 0; i < nout; i++) {                                                                             \
        float c = o[r * nout + i], wt = (float)glow_pf(w[i]);                                                          \
        o[r * nout + i] = mode == 0 ? c : mode == 1 ? (c > 0 ? wt : 0.0f) : c * wt;                                    \
      }                                                                                                                \
  }
TFIDF(i32, int32_t)
TFIDF(i64, int64_t)
