/* TfIdfVectorizer over integer tokens: counts of the pool's n-grams in each
 * row (a 1-D input is one row), an n-gram of length n > 1 taken at every skip
 * 0..max_skip_count (its tokens skip + 1 apart), a 1-gram once; then TF
 * (counts), IDF (weight where the count is not 0) or TFIDF (count * weight).
 * The pool is passed to the kernel as entries {n, output index, n tokens}.
 * String pools are refused: bundles have no string tensors. */
#include <stdlib.h>
#include <string.h>

#include "ops/op-util.h"

typedef struct {
  int mode; /* 0 TF, 1 IDF, 2 TFIDF */
  int64_t rows, cols, nout, min_n, max_n, max_skip;
  int64_t nentries;
  int64_t *entries; /* per entry: n, output index, n tokens */
  int64_t nent_words;
  const double *weights;
} tfidf_plan;

static int tfidf_get(const glow_graph *g, const glow_node *n, tfidf_plan *t) {
  const glow_value *x = glow_in(g, n, 0);
  memset(t, 0, sizeof *t);
  if (x->dt != GLOW_DT_I32 && x->dt != GLOW_DT_I64)
    return glow_node_error(g, n, "input type %s is not supported (int32 or int64 tokens)", glow_dtype_name(x->dt));
  if (x->rank != 1 && x->rank != 2)
    return glow_node_error(g, n, "the input must be 1-D or 2-D, not rank %d", x->rank);
  if (glow_attr_find(n, "pool_strings"))
    return glow_node_error(g, n, "pool_strings: string tensors are not supported (use pool_int64s)");
  const char *mode = glow_attr_string(n, "mode", "");
  t->mode = !strcmp(mode, "TF") ? 0 : !strcmp(mode, "IDF") ? 1 : !strcmp(mode, "TFIDF") ? 2 : -1;
  if (t->mode < 0)
    return glow_node_error(g, n, "mode '%s' is not TF, IDF or TFIDF", mode);
  t->rows = x->rank == 2 ? x->dims[0] : 1;
  t->cols = x->dims[x->rank - 1];
  t->min_n = glow_attr_int(n, "min_gram_length", 0);
  t->max_n = glow_attr_int(n, "max_gram_length", 0);
  t->max_skip = glow_attr_int(n, "max_skip_count", 0);
  const int64_t *counts, *idx, *pool;
  int ncounts = glow_attr_ints(n, "ngram_counts", &counts), nidx = glow_attr_ints(n, "ngram_indexes", &idx);
  int npool = glow_attr_ints(n, "pool_int64s", &pool);
  if (t->min_n < 1 || t->max_n < t->min_n || t->max_skip < 0)
    return glow_node_error(g, n, "need 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
  if (ncounts < 1 || nidx < 1 || npool < 1)
    return glow_node_error(g, n, "ngram_counts, ngram_indexes and pool_int64s are required");
  const glow_attr *w = glow_attr_find(n, "weights");
  t->weights = w ? w->floats : NULL;
  if (w && w->n != nidx)
    return glow_node_error(g, n, "weights has %d values; ngram_indexes has %d", w->n, nidx);
  t->entries = glow_xmalloc(sizeof(int64_t) * (size_t)(npool + 2 * nidx + 1));
  int64_t e = 0, k = 0;
  for (int len = 1; len <= ncounts; len++) {
    int64_t from = counts[len - 1], to = len < ncounts ? counts[len] : npool;
    if (from < 0 || to < from || to > npool || (to - from) % len)
      return glow_node_error(g, n, "ngram_counts does not split pool_int64s into whole %d-grams", len);
    for (int64_t p = from; p < to; p += len, k++) {
      if (k >= nidx)
        return glow_node_error(g, n, "ngram_indexes has %d values, fewer than the pool's n-grams", nidx);
      if (idx[k] < 0)
        return glow_node_error(g, n, "ngram_indexes[%lld] is negative", (long long)k);
      if (idx[k] + 1 > t->nout)
        t->nout = idx[k] + 1;
      if (t->weights && idx[k] != k)
        return glow_node_error(g, n, "weights with an ngram_indexes that is not 0, 1, 2, ... are not supported");
      t->entries[e++] = len;
      t->entries[e++] = idx[k];
      memcpy(t->entries + e, pool + p, sizeof(int64_t) * (size_t)len);
      e += len;
    }
  }
  t->nentries = k;
  t->nent_words = e;
  return 0;
}

static int infer_tfidf(glow_graph *g, glow_node *n) {
  tfidf_plan t;
  int rc = tfidf_get(g, n, &t);
  if (!rc) {
    int64_t dims[2] = {t.rows, t.nout};
    glow_value_set_shape(glow_out(g, n, 0), GLOW_DT_F32, glow_in(g, n, 0)->rank, glow_in(g, n, 0)->rank == 2 ? dims : dims + 1);
  }
  free(t.entries);
  return rc;
}

/* The reference walks each row's n-grams and looks each up in the pool (the
 * kernel walks the pool instead, so the two check each other). */
static int eval_tfidf(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  tfidf_plan t;
  if (tfidf_get(g, n, &t)) {
    free(t.entries);
    return -1;
  }
  const glow_value *x = glow_in(g, n, 0);
  float *o = outs[0];
  memset(o, 0, sizeof(float) * (size_t)(t.rows * t.nout));
  for (int64_t r = 0; r < t.rows; r++)
    for (int64_t len = t.min_n; len <= t.max_n; len++)
      for (int64_t skip = 0; skip <= (len == 1 ? 0 : t.max_skip); skip++)
        for (int64_t s = 0; s + (len - 1) * (skip + 1) < t.cols; s++)
          for (int64_t e = 0; e < t.nent_words; e += 2 + t.entries[e]) {
            int match = t.entries[e] == len;
            for (int64_t j = 0; match && j < len; j++)
              match = glow_elem_geti(x->dt, ins[0], r * t.cols + s + j * (skip + 1)) == t.entries[e + 2 + j];
            if (match)
              o[r * t.nout + t.entries[e + 1]] += 1;
          }
  for (int64_t i = 0; i < t.rows * t.nout; i++) {
    double wt = t.weights ? t.weights[i % t.nout] : 1;
    o[i] = t.mode == 0 ? o[i] : t.mode == 1 ? (o[i] > 0 ? (float)wt : 0) : (float)(o[i] * wt);
  }
  free(t.entries);
  return 0;
}

static int lower_tfidf(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  tfidf_plan t;
  if (tfidf_get(g, n, &t)) {
    free(t.entries);
    return -1;
  }
  glow_kcall_init(kc, "glow_k_tfidf_%s", glow_dtype_suffix(glow_in(g, n, 0)->dt));
  glow_kcall_tensor(kc, n->out[0]);
  glow_kcall_tensor(kc, n->in[0]);
  glow_abi_tfidf a = {.rows = t.rows, .cols = t.cols, .nout = t.nout, .mode = t.mode, .min_n = t.min_n,
                      .max_n = t.max_n, .max_skip = t.max_skip, .nwords = t.nent_words};
  glow_kcall_abi(kc, &a, sizeof a);
  glow_kcall_params(kc, (int)t.nent_words, t.entries);
  for (int64_t i = 0; i < t.nout; i++)
    glow_kcall_paramf(kc, t.weights && i < t.nentries ? t.weights[i] : 1.0);
  free(t.entries);
  return 0;
}

const glow_op_info glow_op_TF_IDF_VECTORIZER = {"TfIdfVectorizer", 1, 1, 1, 1, infer_tfidf, eval_tfidf, lower_tfidf};
