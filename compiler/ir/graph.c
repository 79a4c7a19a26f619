/* Graph IR: values and nodes in arrays indexed by integer ids. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

/* The ops' names; their records are in ops/op-table.c, a layer above. */
static const char *const op_names[] = {
#define GLOW_OP(id, onnx_name) onnx_name,
#include "ir/ops.def"
#undef GLOW_OP
};
_Static_assert(sizeof op_names / sizeof op_names[0] == GLOW_OP_COUNT, "op names out of sync with ops.def");

const char *glow_op_name(glow_op op) {
  GLOW_ASSERT(op >= 0 && op < GLOW_OP_COUNT);
  return op_names[op];
}

glow_op glow_op_from_onnx(const char *onnx_name) {
  for (int i = 0; i < GLOW_OP_COUNT; i++)
    if (!strcmp(op_names[i], onnx_name))
      return (glow_op)i;
  return GLOW_OP_COUNT;
}

glow_graph *glow_graph_create(const char *file) {
  glow_graph *g = glow_xcalloc(1, sizeof *g);
  g->file = file;
  return g;
}

void glow_node_free(glow_node *n) {
  free(n->name);
  free(n->in);
  free(n->out);
  for (int a = 0; a < n->nattr; a++) {
    glow_attr_clear(&n->attrs[a]);
    free(n->attrs[a].name);
  }
  free(n->attrs);
  memset(n, 0, sizeof *n);
}

void glow_graph_free(glow_graph *g) {
  if (!g)
    return;
  for (int i = 0; i < g->nvals; i++) {
    free(g->vals[i].name);
    free(g->vals[i].data);
  }
  for (int i = 0; i < g->nnodes; i++)
    glow_node_free(&g->nodes[i]);
  free(g->vals);
  free(g->nodes);
  free(g->inputs);
  free(g->outputs);
  free(g);
}

int glow_value_add(glow_graph *g, const char *name) {
  if (g->nvals == g->capvals) {
    g->capvals = g->capvals ? g->capvals * 2 : 64;
    g->vals = glow_xrealloc(g->vals, (size_t)g->capvals * sizeof *g->vals);
  }
  glow_value *v = &g->vals[g->nvals];
  memset(v, 0, sizeof *v);
  v->name = glow_xstrdup(name ? name : "");
  v->rank = -1;
  v->producer = -1;
  return g->nvals++;
}

int glow_value_find(const glow_graph *g, const char *name) {
  for (int i = g->nvals - 1; i >= 0; i--)
    if (!strcmp(g->vals[i].name, name))
      return i;
  return -1;
}

int *glow_use_counts(const glow_graph *g) {
  int *uses = glow_xcalloc((size_t)(g->nvals ? g->nvals : 1), sizeof(int));
  for (int i = 0; i < g->nnodes; i++)
    for (int k = 0; !g->nodes[i].dead && k < g->nodes[i].nin; k++)
      if (g->nodes[i].in[k] >= 0)
        uses[g->nodes[i].in[k]]++;
  return uses;
}

int glow_sole_user(const glow_graph *g, const int *uses, int v) {
  if (v < 0 || g->vals[v].is_output || uses[v] != 1)
    return -1;
  for (int i = 0; i < g->nnodes; i++)
    for (int k = 0; !g->nodes[i].dead && k < g->nodes[i].nin; k++)
      if (g->nodes[i].in[k] == v)
        return i;
  return -1;
}

void glow_node_take_output(glow_graph *g, int node, int by) {
  glow_node *c = &g->nodes[node], *n = &g->nodes[by];
  g->vals[c->out[0]].producer = -1;
  c->out[0] = n->out[0];
  g->vals[n->out[0]].producer = node;
  n->dead = 1;
}

int glow_node_add(glow_graph *g, glow_op op, const char *name, int nin, const int *in, int nout, const int *out) {
  if (g->nnodes == g->capnodes) {
    g->capnodes = g->capnodes ? g->capnodes * 2 : 64;
    g->nodes = glow_xrealloc(g->nodes, (size_t)g->capnodes * sizeof *g->nodes);
  }
  glow_node *n = &g->nodes[g->nnodes];
  memset(n, 0, sizeof *n);
  n->name = glow_xstrdup(name ? name : "");
  n->op = op;
  n->nin = nin;
  n->nout = nout;
  n->in = glow_xmalloc(sizeof(int) * (size_t)(nin ? nin : 1));
  n->out = glow_xmalloc(sizeof(int) * (size_t)(nout ? nout : 1));
  memcpy(n->in, in, sizeof(int) * (size_t)nin);
  memcpy(n->out, out, sizeof(int) * (size_t)nout);
  for (int i = 0; i < nout; i++)
    if (out[i] >= 0)
      g->vals[out[i]].producer = g->nnodes;
  return g->nnodes++;
}

int64_t glow_value_numel(const glow_value *v) {
  int64_t n = 1;
  for (int i = 0; i < v->rank; i++)
    n *= v->dims[i];
  return n;
}

size_t glow_value_bytes(const glow_value *v) { return (size_t)glow_value_numel(v) * glow_dtype_size(v->dt); }

void glow_value_set_shape(glow_value *v, glow_dtype dt, int rank, const int64_t *dims) {
  GLOW_ASSERT(rank >= 0 && rank <= GLOW_MAX_RANK);
  v->dt = dt;
  v->rank = rank;
  for (int i = 0; i < rank; i++)
    v->dims[i] = dims[i];
}

int glow_value_make_const(glow_graph *g, int id, glow_dtype dt, int rank, const int64_t *dims, const void *data) {
  glow_value *v = &g->vals[id];
  glow_value_set_shape(v, dt, rank, dims);
  size_t n = glow_value_bytes(v);
  free(v->data);
  v->data = glow_xmalloc(n);
  if (n)
    memcpy(v->data, data, n);
  v->kind = GLOW_VAL_CONST;
  return 0;
}

int glow_value_add_derived(glow_graph *g, int base, const char *suffix, glow_dtype dt, int rank, const int64_t *dims,
                           const void *data) {
  char name[600];
  snprintf(name, sizeof name, "%s%s", g->vals[base].name ? g->vals[base].name : "", suffix);
  int id = glow_value_add(g, name);
  glow_value_make_const(g, id, dt, rank, dims, data);
  return id;
}

int glow_value_same_type(const glow_value *a, const glow_value *b) {
  if (a->dt != b->dt || a->rank != b->rank)
    return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i])
      return 0;
  return 1;
}

char *glow_shape_str(const glow_value *v, char *buf, size_t cap) {
  size_t k = (size_t)snprintf(buf, cap, "%s[", glow_dtype_name(v->dt));
  for (int i = 0; i < v->rank && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? "," : "", (long long)v->dims[i]);
  if (k < cap)
    snprintf(buf + k, cap - k, "]");
  return buf;
}

int glow_value_add_unique(glow_graph *g, glow_str_table *names, const char *name) {
  glow_strbuf b = {0};
  glow_sb_printf(&b, "%s", name);
  for (int k = 1; glow_str_table_get(names, b.s); k++) {
    b.len = 0;
    glow_sb_printf(&b, "%s__%d", name, k);
  }
  int id = glow_value_add(g, b.s);
  glow_str_table_put(names, g->vals[id].name, id);
  glow_sb_free(&b);
  return id;
}
