/* Growable string buffer for generated text (headers, weights as C). */
#include <stdlib.h>

#include "glowc.h"

void glow_sb_printf(glow_strbuf *b, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    size_t room = b->cap - b->len;
    va_start(ap, fmt);
    int n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
    va_end(ap);
    GLOW_ASSERT(n >= 0);
    if ((size_t)n < room) {
      b->len += (size_t)n;
      return;
    }
    b->cap = (b->cap + (size_t)n + 1) * 2;
    b->s = glow_xrealloc(b->s, b->cap);
  }
}

void glow_sb_free(glow_strbuf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}
