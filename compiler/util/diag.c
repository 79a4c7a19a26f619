/* Diagnostics: user errors carry the model file and node name; internal bugs abort. */
#include <stdlib.h>

#include "glowc.h"

static int nerrors;
static int quiet;

void glow_internal(const char *file, int line, const char *msg) {
  fprintf(stderr, "glowc: internal error at %s:%d: %s\n", file, line, msg);
  abort();
}

void glow_verror(const char *where, const char *fmt, va_list ap) {
  nerrors++;
  if (quiet)
    return;
  fprintf(stderr, "%s: error: ", where ? where : "glowc");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void glow_error(const char *where, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  glow_verror(where, fmt, ap);
  va_end(ap);
}

void glow_warning(const char *where, const char *fmt, ...) {
  va_list ap;
  if (quiet)
    return;
  fprintf(stderr, "%s: warning: ", where ? where : "glowc");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int glow_error_count(void) { return nerrors; }

int glow_set_quiet(int q) {
  int was = quiet;
  quiet = q;
  return was;
}

void glow_note(const char *fmt, ...) {
  va_list ap;
  if (quiet)
    return;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}
