/* User errors about a node: "<model file>:<node name> (<op>): error: ...". */
#include "glowc.h"

int glow_node_error(const glow_graph *g, const glow_node *n, const char *fmt, ...) {
  glow_strbuf where = {0};
  glow_sb_printf(&where, "%s:%s (%s)", g->file ? g->file : "<model>", n->name && *n->name ? n->name : "<unnamed node>",
                 glow_op_name(n->op));
  va_list ap;
  va_start(ap, fmt);
  glow_verror(where.s, fmt, ap);
  va_end(ap);
  glow_sb_free(&where);
  return -1;
}
