/* Symbol names as Glow writes them: a model's tensor names made C identifiers (Glow's
 * legalizeName, lib/Support/Support.cpp) and unique (Glow's Module::uniqueName). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/symbol-names.h"

/* Glow's limit on a legal name's length (legalizeName's default maxLength). */
#define GLOW_SYMBOL_MAX 500

static uint64_t rot64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t load_le64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

/* One 96-byte block into the 12-word state (SpookyHash V2's Mix). */
static void spooky_mix(const unsigned char *block, uint64_t s[12]) {
  static const int r[12] = {11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46};
  for (int i = 0; i < 12; i++) {
    s[i] += load_le64(block + 8 * i);
    s[(i + 2) % 12] ^= s[(i + 10) % 12];
    s[(i + 11) % 12] ^= s[i];
    s[i] = rot64(s[i], r[i]);
    s[(i + 11) % 12] += s[(i + 1) % 12];
  }
}

/* SpookyHash V2's EndPartial. */
static void spooky_end_partial(uint64_t h[12]) {
  static const int r[12] = {44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54};
  for (int i = 0; i < 12; i++) {
    h[(i + 11) % 12] += h[(i + 1) % 12];
    h[(i + 2) % 12] ^= h[(i + 11) % 12];
    h[(i + 1) % 12] = rot64(h[(i + 1) % 12], r[i]);
  }
}

/* Bob Jenkins' SpookyHash V2, 64 bits with seed 0, for messages of 192 bytes or more
 * (its long form; the names Glow truncates are over 500 bytes). Glow hashes a long name
 * with it (folly's SpookyHashV2::Hash64) to make the truncated name's suffix. */
static uint64_t spooky64_long(const unsigned char *msg, size_t len) {
  const uint64_t sc_const = 0xdeadbeefdeadbeefULL;
  uint64_t h[12];
  for (int i = 0; i < 12; i++)
    h[i] = i % 3 == 2 ? sc_const : 0;
  size_t whole = len / 96 * 96;
  for (size_t k = 0; k < whole; k += 96)
    spooky_mix(msg + k, h);
  unsigned char last[96] = {0};
  memcpy(last, msg + whole, len - whole);
  last[95] = (unsigned char)(len - whole);
  for (int i = 0; i < 12; i++)
    h[i] += load_le64(last + 8 * i);
  for (int k = 0; k < 3; k++)
    spooky_end_partial(h);
  return h[0];
}

static int legal_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

char *glow_symbol_legalize(const char *name) {
  size_t n = strlen(name);
  /* Empty, or a leading digit: Glow puts an 'A' in front. */
  int a = n == 0 || (name[0] >= '0' && name[0] <= '9');
  char *s = glow_xmalloc(n + (size_t)a + 1);
  s[0] = 'A';
  for (size_t i = 0; i < n; i++)
    s[a + i] = legal_char((unsigned char)name[i]) ? name[i] : '_';
  s[n + (size_t)a] = 0;
  n += (size_t)a;
  if (n <= GLOW_SYMBOL_MAX)
    return s;
  /* Too long: the head, then "_trunc_<hash of the whole legal name>", 500 bytes in all. */
  char suffix[40];
  int k = snprintf(suffix, sizeof suffix, "_trunc_%llu", (unsigned long long)spooky64_long((unsigned char *)s, n));
  memcpy(s + GLOW_SYMBOL_MAX - (size_t)k, suffix, (size_t)k + 1);
  return s;
}

/* The names taken so far, and for a prefix the last __<i> that gave a name: every
 * smaller i was taken then and still is, so Glow's search from 1 may start after it. */
typedef struct {
  char **key;
  int *taken, *last;
  size_t mask;
} name_set;

static size_t slot_of(const name_set *t, const char *s) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (const char *c = s; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211ULL;
  size_t i = (size_t)h & t->mask;
  while (t->key[i] && strcmp(t->key[i], s))
    i = (i + 1) & t->mask;
  return i;
}

/* The entry for s, added (untaken, no counter) if it is not there. */
static size_t entry(name_set *t, const char *s) {
  size_t i = slot_of(t, s);
  if (!t->key[i])
    t->key[i] = glow_xstrdup(s);
  return i;
}

/* Glow's Module::getPrefix: the name without a trailing "__<digits>" ("x__" counts). */
static size_t prefix_len(const char *s) {
  const char *u = NULL;
  for (const char *c = s; c[0] && c[1]; c++)
    if (c[0] == '_' && c[1] == '_')
      u = c;
  if (!u)
    return strlen(s);
  for (const char *c = u + 2; *c; c++)
    if (*c < '0' || *c > '9')
      return strlen(s);
  return (size_t)(u - s);
}

/* Glow's Module::uniqueName over the names taken before: the legal name if it is free,
 * else <prefix>__1, __2, ... the first that is. (Glow keeps a trailing __<digits> in the
 * prefix when the name is an operator's name in the model; the names here are inputs and
 * outputs only.) */
static char *unique(name_set *t, char *legal) {
  size_t i = entry(t, legal);
  if (!t->taken[i]) {
    t->taken[i] = 1;
    return legal;
  }
  size_t plen = prefix_len(legal);
  legal[plen] = 0;
  size_t p = entry(t, legal);
  char *s = glow_xmalloc(plen + 24);
  for (int k = t->last[p] + 1;; k++) {
    snprintf(s, plen + 24, "%s__%d", legal, k);
    size_t j = entry(t, s);
    if (!t->taken[j]) {
      t->taken[j] = 1;
      t->last[p] = k;
      break;
    }
  }
  free(legal);
  return s;
}

char **glow_symbol_names(const glow_graph *g) {
  int n = g->ninputs + g->noutputs;
  /* At most two entries a name: itself and its prefix (the names tried and taken are
   * the same entries). */
  size_t cap = 16;
  while (cap < 4 * (size_t)n + 16)
    cap *= 2;
  name_set t = {glow_xcalloc(cap, sizeof(char *)), glow_xcalloc(cap, sizeof(int)), glow_xcalloc(cap, sizeof(int)),
                cap - 1};
  char **names = glow_xmalloc(sizeof(char *) * (size_t)(n ? n : 1));
  for (int k = 0; k < n; k++) {
    int id = k < g->ninputs ? g->inputs[k] : g->outputs[k - g->ninputs];
    names[k] = unique(&t, glow_symbol_legalize(g->vals[id].name));
  }
  for (size_t i = 0; i < cap; i++)
    free(t.key[i]);
  free(t.key);
  free(t.taken);
  free(t.last);
  return names;
}

void glow_symbol_names_free(char **names, int n) {
  for (int k = 0; names && k < n; k++)
    free(names[k]);
  free(names);
}
