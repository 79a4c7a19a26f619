/* A string -> int table (open addressing, FNV-1a); keys are borrowed, not copied.
 * The importers name values with it, so made-up names never clash. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

static size_t hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 1099511628211ull;
  return (size_t)h;
}

static size_t table_slot(const glow_str_table *t, const char *key) {
  size_t i = hash(key) & (t->cap - 1);
  while (t->keys[i] && strcmp(t->keys[i], key))
    i = (i + 1) & (t->cap - 1);
  return i;
}

int *glow_str_table_get(glow_str_table *t, const char *key) {
  if (!t->cap)
    return NULL;
  size_t i = table_slot(t, key);
  return t->keys[i] ? &t->vals[i] : NULL;
}

void glow_str_table_put(glow_str_table *t, const char *key, int val) {
  if (2 * (t->n + 1) > t->cap) {
    glow_str_table old = *t;
    t->cap = old.cap ? 2 * old.cap : 64;
    t->keys = glow_xcalloc(t->cap, sizeof *t->keys);
    t->vals = glow_xcalloc(t->cap, sizeof *t->vals);
    t->n = 0;
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i])
        glow_str_table_put(t, old.keys[i], old.vals[i]);
    glow_str_table_free(&old);
  }
  size_t i = table_slot(t, key);
  t->n += !t->keys[i];
  t->keys[i] = key;
  t->vals[i] = val;
}

void glow_str_table_free(glow_str_table *t) {
  free(t->keys);
  free(t->vals);
  memset(t, 0, sizeof *t);
}
