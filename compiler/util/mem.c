/* Allocation that cannot fail silently: out of memory is fatal for a compiler. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

static void *check(void *p, size_t n) {
  if (!p && n) {
    fprintf(stderr, "glowc: error: out of memory (%zu bytes)\n", n);
    exit(1);
  }
  return p;
}

void *glow_xmalloc(size_t n) { return check(malloc(n ? n : 1), n); }
void *glow_xcalloc(size_t n, size_t sz) { return check(calloc(n ? n : 1, sz ? sz : 1), n * sz); }
void *glow_xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1), n); }
char *glow_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(glow_xmalloc(n), s, n);
}
