/* The top-k labels of one image and their lines, as Glow's image-classifier picks and
 * prints them (tools/loader/ImageClassifier.cpp): a min-priority queue of (score, index)
 * pairs that a later score replaces only when strictly higher, read back highest first. */
#include "driver/image-classifier.h"

/* Glow's pair order: by score, then by index. */
static int pair_less(const glow_label *a, const glow_label *b) {
  return a->score < b->score || (!(b->score < a->score) && a->index < b->index);
}

void glow_top_k(const float *scores, int64_t n, int k, glow_label *out) {
  int m = 0;
  for (int64_t i = 0; i < n; i++) {
    glow_label cur = {scores[i], i};
    if (m < k) {
      out[m++] = cur;
      continue;
    }
    int low = 0; /* the queue's top: its smallest pair */
    for (int j = 1; j < m; j++)
      if (pair_less(&out[j], &out[low]))
        low = j;
    if (out[low].score < cur.score)
      out[low] = cur;
  }
  /* Highest pair first: the order Glow pops them in, reversed. */
  for (int i = 1; i < m; i++)
    for (int j = i; j > 0 && pair_less(&out[j - 1], &out[j]); j--) {
      glow_label t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
}

void glow_print_labels(FILE *f, const char *file, const glow_label *top, int k, int label_offset) {
  fprintf(f, " File: %s", file);
  for (int i = 0; i < k; i++) {
    if (i)
      fputs("\t\t\t\t\t", f); /* under the first label */
    /* Glow's label is a size_t: index - offset wraps below zero as it does there. */
    fprintf(f, "\tLabel-K%d: %zu (probability: %0.4f)\n", i + 1, (size_t)(top[i].index - label_offset),
            (double)top[i].score);
  }
}
