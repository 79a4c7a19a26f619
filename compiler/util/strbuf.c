/* Growable string buffer for generated text (headers, weights as C) and bytes. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

void glow_sb_printf(glow_strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  glow_sb_vprintf(b, fmt, ap);
  va_end(ap);
}

void glow_sb_vprintf(glow_strbuf *b, const char *fmt, va_list ap0) {
  va_list ap;
  for (;;) {
    size_t room = b->cap - b->len;
    va_copy(ap, ap0);
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

char *glow_sb_extend(glow_strbuf *b, size_t size) {
  if (b->cap - b->len < size + 1) { /* room for a terminating 0, as printf keeps */
    b->cap = b->len ? (b->cap + size + 1) * 2 : size + 1;
    b->s = glow_xrealloc(b->s, b->cap);
  }
  char *at = b->s + b->len;
  b->len += size;
  b->s[b->len] = 0;
  return at;
}

void glow_sb_append(glow_strbuf *b, const void *data, size_t size) {
  char *at = glow_sb_extend(b, size);
  if (size)
    memcpy(at, data, size);
}

void glow_sb_free(glow_strbuf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}
