/* Diagnostics: user errors carry the model file and node name; internal bugs abort. */
#include <stdlib.h>

#include "glowc.h"

static int nerrors;
static int quiet;

void glow_internal(const char *file, int line, const char *msg) {
  fprintf(stderr, "glowc: internal error at %s:%d: %s\n", file, line, msg);
  abort();
}

void glow_error(const char *where, const char *fmt, ...) {
  va_list ap;
  nerrors++;
  if (quiet)
    return;
  fprintf(stderr, "%s: error: ", where ? where : "glowc");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
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

int glow_node_error(const glow_graph *g, const glow_node *n, const char *fmt, ...) {
  va_list ap;
  nerrors++;
  if (quiet)
    return -1;
  fprintf(stderr, "%s:%s (%s): error: ", g->file ? g->file : "<model>",
          n->name && *n->name ? n->name : "<unnamed node>", glow_op_get(n->op)->onnx_name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return -1;
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
