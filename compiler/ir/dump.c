/* Text and Graphviz dumps of the IR (-dump-after, -dump-graph-DAG). */
#include "glowc.h"

static void value_line(const glow_graph *g, int id, FILE *f) {
  char s[160];
  if (id < 0) {
    fprintf(f, "-");
    return;
  }
  fprintf(f, "%%%d:%s %s", id, g->vals[id].name, glow_shape_str(&g->vals[id], s, sizeof s));
}

void glow_graph_dump(const glow_graph *g, FILE *f) {
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *n = &g->nodes[i];
    if (n->dead)
      continue;
    fprintf(f, "  ");
    for (int k = 0; k < n->nout; k++) {
      fprintf(f, k ? ", " : "");
      value_line(g, n->out[k], f);
    }
    fprintf(f, " = %s \"%s\"(", glow_op_name(n->op), n->name);
    for (int k = 0; k < n->nin; k++) {
      fprintf(f, k ? ", " : "");
      value_line(g, n->in[k], f);
    }
    fprintf(f, ")\n");
  }
}

static void dot_escape(FILE *f, const char *s) {
  for (; *s; s++)
    fprintf(f, *s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
}

int glow_graph_dump_dot(const glow_graph *g, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) {
    glow_error(path, "cannot write the graph dump");
    return -1;
  }
  fprintf(f, "digraph glowc {\n  rankdir=TB;\n  node [shape=record, fontname=\"monospace\"];\n");
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *n = &g->nodes[i];
    if (n->dead)
      continue;
    fprintf(f, "  n%d [label=\"{%s|", i, glow_op_name(n->op));
    dot_escape(f, n->name);
    fprintf(f, "}\"];\n");
    for (int k = 0; k < n->nin; k++) {
      int id = n->in[k];
      if (id < 0)
        continue;
      char s[160];
      if (g->vals[id].producer >= 0)
        fprintf(f, "  n%d -> n%d [label=\"", g->vals[id].producer, i);
      else
        fprintf(f, "  v%d [shape=ellipse, label=\"%s\"];\n  v%d -> n%d [label=\"", id,
                g->vals[id].kind == GLOW_VAL_CONST ? "const" : "input", id, i);
      dot_escape(f, g->vals[id].name);
      fprintf(f, "\\n%s\"];\n", glow_shape_str(&g->vals[id], s, sizeof s));
    }
  }
  fprintf(f, "}\n");
  return fclose(f) ? -1 : 0;
}
