/* The function table graph-pass plugins see (glowc-pass.h). Every function checks
 * its ids and arguments: a plugin's mistake becomes an error naming the pass,
 * never an abort inside glowc. */
#include <stdlib.h>
#include <string.h>

#include "plugin/plugin.h"

void glow_plugin_where(const glow_plugin_pass *p, char *buf, size_t cap) {
  snprintf(buf, cap, "%s (pass %s)", p->lib, p->name);
}

static void vreport(glowc_graph *h, const char *kind, const char *fmt, va_list ap) {
  char where[512];
  glow_plugin_where(h->pass, where, sizeof where);
  glow_strbuf sb = {0};
  glow_sb_vprintf(&sb, fmt, ap);
  while (sb.len && sb.s[sb.len - 1] == '\n')
    sb.s[--sb.len] = 0;
  if (!strcmp(kind, "error")) {
    h->failed = 1;
    glow_error(where, "%s", sb.s ? sb.s : "");
  } else {
    glow_note("%s: %s\n", where, sb.s ? sb.s : "");
  }
  glow_sb_free(&sb);
}

static void api_error(glowc_graph *h, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(h, "error", fmt, ap);
  va_end(ap);
}

static void api_note(glowc_graph *h, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(h, "note", fmt, ap);
  va_end(ap);
}

/* A misuse of the API by the plugin: reported as its error. */
static int misuse(const glowc_graph *ch, const char *fn, const char *fmt, ...) {
  glowc_graph *h = (glowc_graph *)ch;
  glow_strbuf sb = {0};
  va_list ap;
  va_start(ap, fmt);
  glow_sb_vprintf(&sb, fmt, ap);
  va_end(ap);
  api_error(h, "%s: %s", fn, sb.s ? sb.s : "");
  glow_sb_free(&sb);
  return -1;
}

static glow_node *node(const glowc_graph *h, int id, const char *fn) {
  if (id < 0 || id >= h->g->nnodes) {
    misuse(h, fn, "no node %d (node_count is %d)", id, h->g->nnodes);
    return NULL;
  }
  return &h->g->nodes[id];
}

static glow_node *live_node(const glowc_graph *h, int id, const char *fn) {
  glow_node *n = node(h, id, fn);
  if (n && n->dead) {
    misuse(h, fn, "node %d ('%s') was erased", id, n->name);
    return NULL;
  }
  return n;
}

static glow_value *value(const glowc_graph *h, int id, const char *fn) {
  if (id < 0 || id >= h->g->nvals) {
    misuse(h, fn, "no value %d (value_count is %d)", id, h->g->nvals);
    return NULL;
  }
  return &h->g->vals[id];
}

/* ---- nodes ---- */

static int node_count(const glowc_graph *h) { return h->g->nnodes; }

static int node_erased(const glowc_graph *h, int id) {
  const glow_node *n = node(h, id, "node_erased");
  return n ? n->dead : -1;
}

static const char *node_op(const glowc_graph *h, int id) {
  const glow_node *n = node(h, id, "node_op");
  return n ? glow_op_get(n->op)->onnx_name : NULL;
}

static const char *node_name(const glowc_graph *h, int id) {
  const glow_node *n = node(h, id, "node_name");
  return n ? n->name : NULL;
}

static int node_num_inputs(const glowc_graph *h, int id) {
  const glow_node *n = node(h, id, "node_num_inputs");
  return n ? n->nin : -1;
}

static int node_num_outputs(const glowc_graph *h, int id) {
  const glow_node *n = node(h, id, "node_num_outputs");
  return n ? n->nout : -1;
}

static int node_input(const glowc_graph *h, int id, int i) {
  const glow_node *n = node(h, id, "node_input");
  if (n && (i < 0 || i >= n->nin))
    return misuse(h, "node_input", "node %d ('%s') has %d inputs, not input %d", id, n->name, n->nin, i);
  return n ? n->in[i] : -1;
}

static int node_output(const glowc_graph *h, int id, int i) {
  const glow_node *n = node(h, id, "node_output");
  if (n && (i < 0 || i >= n->nout))
    return misuse(h, "node_output", "node %d ('%s') has %d outputs, not output %d", id, n->name, n->nout, i);
  return n ? n->out[i] : -1;
}

/* ---- attributes ---- */

static const glow_attr *attr_get(const glowc_graph *h, int id, const char *name, glow_attr_type t, const char *fn) {
  const glow_node *n = node(h, id, fn);
  if (!n || !name)
    return NULL;
  const glow_attr *a = glow_attr_find(n, name);
  return a && (t == GLOW_ATTR_UNDEF || a->type == t) ? a : NULL;
}

static int attr_count(const glowc_graph *h, int id) {
  const glow_node *n = node(h, id, "attr_count");
  return n ? n->nattr : -1;
}

static const char *attr_name(const glowc_graph *h, int id, int i) {
  const glow_node *n = node(h, id, "attr_name");
  if (n && (i < 0 || i >= n->nattr)) {
    misuse(h, "attr_name", "node %d ('%s') has %d attributes, not attribute %d", id, n->name, n->nattr, i);
    return NULL;
  }
  return n ? n->attrs[i].name : NULL;
}

static int attr_type(const glowc_graph *h, int id, const char *name) {
  const glow_attr *a = attr_get(h, id, name, GLOW_ATTR_UNDEF, "attr_type");
  return a ? (int)a->type : GLOWC_ATTR_NONE;
}

static int attr_int(const glowc_graph *h, int id, const char *name, int64_t *v) {
  const glow_attr *a = attr_get(h, id, name, GLOW_ATTR_INT, "attr_int");
  if (a)
    *v = a->i;
  return a ? 0 : -1;
}

static int attr_float(const glowc_graph *h, int id, const char *name, double *v) {
  const glow_attr *a = attr_get(h, id, name, GLOW_ATTR_FLOAT, "attr_float");
  if (a)
    *v = a->f;
  return a ? 0 : -1;
}

static int attr_string(const glowc_graph *h, int id, const char *name, const char **v) {
  const glow_attr *a = attr_get(h, id, name, GLOW_ATTR_STRING, "attr_string");
  if (a)
    *v = a->s;
  return a ? 0 : -1;
}

static int attr_ints(const glowc_graph *h, int id, const char *name, const int64_t **v) {
  const glow_attr *a = attr_get(h, id, name, GLOW_ATTR_INTS, "attr_ints");
  if (a)
    *v = a->ints;
  return a ? a->n : -1;
}

static int attr_floats(const glowc_graph *h, int id, const char *name, const double **v) {
  const glow_attr *a = attr_get(h, id, name, GLOW_ATTR_FLOATS, "attr_floats");
  if (a)
    *v = a->floats;
  return a ? a->n : -1;
}

/* The attribute `name` of a live node, emptied (added if absent), or NULL. */
static glow_attr *attr_slot(glowc_graph *h, int id, const char *name, const char *fn) {
  glow_node *n = live_node(h, id, fn);
  if (!n)
    return NULL;
  if (!name || !*name) {
    misuse(h, fn, "an attribute needs a name");
    return NULL;
  }
  return glow_attr_slot(n, name);
}

static int set_attr_int(glowc_graph *h, int id, const char *name, int64_t v) {
  glow_attr *a = attr_slot(h, id, name, "set_attr_int");
  if (!a)
    return -1;
  a->type = GLOW_ATTR_INT;
  a->i = v;
  return 0;
}

static int set_attr_float(glowc_graph *h, int id, const char *name, double v) {
  glow_attr *a = attr_slot(h, id, name, "set_attr_float");
  if (!a)
    return -1;
  a->type = GLOW_ATTR_FLOAT;
  a->f = v;
  return 0;
}

static int set_attr_string(glowc_graph *h, int id, const char *name, const char *v) {
  if (!v)
    return misuse(h, "set_attr_string", "no string given for attribute '%s'", name ? name : "");
  glow_attr *a = attr_slot(h, id, name, "set_attr_string");
  if (!a)
    return -1;
  a->type = GLOW_ATTR_STRING;
  a->s = glow_xstrdup(v);
  return 0;
}

static int set_attr_ints(glowc_graph *h, int id, const char *name, int n, const int64_t *v) {
  if (n < 0 || (n && !v))
    return misuse(h, "set_attr_ints", "attribute '%s': %d elements from %p", name ? name : "", n, (const void *)v);
  glow_attr *a = attr_slot(h, id, name, "set_attr_ints");
  if (!a)
    return -1;
  a->type = GLOW_ATTR_INTS;
  a->n = n;
  a->ints = glow_xmalloc(sizeof *a->ints * (size_t)(n ? n : 1));
  if (n)
    memcpy(a->ints, v, sizeof *a->ints * (size_t)n);
  return 0;
}

static int set_attr_floats(glowc_graph *h, int id, const char *name, int n, const double *v) {
  if (n < 0 || (n && !v))
    return misuse(h, "set_attr_floats", "attribute '%s': %d elements from %p", name ? name : "", n, (const void *)v);
  glow_attr *a = attr_slot(h, id, name, "set_attr_floats");
  if (!a)
    return -1;
  a->type = GLOW_ATTR_FLOATS;
  a->n = n;
  a->floats = glow_xmalloc(sizeof *a->floats * (size_t)(n ? n : 1));
  if (n)
    memcpy(a->floats, v, sizeof *a->floats * (size_t)n);
  return 0;
}

static int remove_attr(glowc_graph *h, int id, const char *name) {
  glow_node *n = live_node(h, id, "remove_attr");
  const glow_attr *a = n && name ? glow_attr_find(n, name) : NULL;
  if (!a)
    return n ? misuse(h, "remove_attr", "node %d ('%s') has no attribute '%s'", id, n->name, name ? name : "") : -1;
  int i = (int)(a - n->attrs);
  glow_attr_clear(&n->attrs[i]);
  free(n->attrs[i].name);
  memmove(&n->attrs[i], &n->attrs[i + 1], sizeof *n->attrs * (size_t)(n->nattr - i - 1));
  n->nattr--;
  return 0;
}

/* ---- values ---- */

static int value_count(const glowc_graph *h) { return h->g->nvals; }

static const char *value_name(const glowc_graph *h, int id) {
  const glow_value *v = value(h, id, "value_name");
  return v ? v->name : NULL;
}

static int value_dtype(const glowc_graph *h, int id) {
  const glow_value *v = value(h, id, "value_dtype");
  return v ? (int)v->dt : -1;
}

static int value_rank(const glowc_graph *h, int id) {
  const glow_value *v = value(h, id, "value_rank");
  return v ? v->rank : -1;
}

static int value_dims(const glowc_graph *h, int id, int64_t *dims, int cap) {
  const glow_value *v = value(h, id, "value_dims");
  if (!v)
    return -1;
  for (int i = 0; i < v->rank && i < cap; i++)
    dims[i] = v->dims[i];
  return v->rank;
}

static int value_kind(const glowc_graph *h, int id) {
  const glow_value *v = value(h, id, "value_kind");
  if (!v)
    return -1;
  return v->kind == GLOW_VAL_CONST ? GLOWC_VALUE_CONSTANT : v->kind == GLOW_VAL_INPUT ? GLOWC_VALUE_INPUT
                                                                                    : GLOWC_VALUE_ACTIVATION;
}

static int value_is_output(const glowc_graph *h, int id) {
  const glow_value *v = value(h, id, "value_is_output");
  return v ? v->is_output : -1;
}

static int value_producer(const glowc_graph *h, int id) {
  const glow_value *v = value(h, id, "value_producer");
  if (!v)
    return -1;
  return v->producer >= 0 && !h->g->nodes[v->producer].dead ? v->producer : -1;
}

/* The k-th use (live nodes in id order, inputs in order) of value id; k < 0 counts them. */
static int find_use(const glowc_graph *h, int id, int k, int *input) {
  int seen = 0;
  for (int i = 0; i < h->g->nnodes; i++) {
    const glow_node *n = &h->g->nodes[i];
    for (int j = 0; j < n->nin && !n->dead; j++)
      if (n->in[j] == id && seen++ == k) {
        if (input)
          *input = j;
        return i;
      }
  }
  return k < 0 ? seen : -1;
}

static int value_num_uses(const glowc_graph *h, int id) {
  return value(h, id, "value_num_uses") ? find_use(h, id, -1, NULL) : -1;
}

static int value_use(const glowc_graph *h, int id, int k, int *input) {
  if (!value(h, id, "value_use"))
    return -1;
  int n = k >= 0 ? find_use(h, id, k, input) : -1;
  if (n < 0)
    return misuse(h, "value_use", "value %d ('%s') has %d uses, not use %d", id, h->g->vals[id].name,
                  find_use(h, id, -1, NULL), k);
  return n;
}

static const void *constant_data(const glowc_graph *h, int id, size_t *bytes) {
  const glow_value *v = value(h, id, "constant_data");
  if (!v || v->kind != GLOW_VAL_CONST)
    return NULL;
  if (bytes)
    *bytes = glow_value_bytes(v);
  return v->data;
}

/* ---- editing ---- */

/* A fresh value name: `name` if it is free (NULL: "<pass>.<n>"); NULL after an error. */
static char *new_name(glowc_graph *h, const char *name, const char *fn) {
  if (name && *name) {
    if (glow_value_find(h->g, name) >= 0) {
      misuse(h, fn, "a value named '%s' exists already", name);
      return NULL;
    }
    return glow_xstrdup(name);
  }
  glow_strbuf sb = {0};
  for (int i = h->g->nvals;; i++) {
    sb.len = 0;
    glow_sb_printf(&sb, "%s.%d", h->pass->name, i);
    if (glow_value_find(h->g, sb.s) < 0)
      return sb.s;
  }
}

static int constant_add(glowc_graph *h, const char *name, int dtype, int rank, const int64_t *dims, const void *data) {
  if (dtype <= 0 || dtype >= GLOW_DT_COUNT || !glow_dtype_size((glow_dtype)dtype) || dtype == GLOW_DT_STRING)
    return misuse(h, "constant_add", "dtype %d is not a numeric ONNX TensorProto.DataType", dtype);
  if (rank < 0 || rank > GLOW_MAX_RANK || (rank && !dims))
    return misuse(h, "constant_add", "rank %d (glowc takes 0 to %d, with dims)", rank, GLOW_MAX_RANK);
  for (int i = 0; i < rank; i++)
    if (dims[i] < 0 || dims[i] > ((int64_t)1 << 32))
      return misuse(h, "constant_add", "dimension %d is %lld", i, (long long)dims[i]);
  char *nm = new_name(h, name, "constant_add");
  if (!nm)
    return -1;
  int id = glow_value_add(h->g, nm);
  free(nm);
  glow_value probe = {.dt = (glow_dtype)dtype, .rank = rank};
  memcpy(probe.dims, dims, sizeof *dims * (size_t)rank);
  if (glow_value_bytes(&probe) && !data)
    return misuse(h, "constant_add", "no data for a constant of %zu bytes", glow_value_bytes(&probe));
  glow_value_make_const(h->g, id, (glow_dtype)dtype, rank, dims, data);
  return id;
}

static int node_add(glowc_graph *h, const char *op, const char *name, int nin, const int *in, int nout,
                    const char *const *output_names, int *outs) {
  glow_op k = op ? glow_op_from_onnx(op) : GLOW_OP_COUNT;
  if (k == GLOW_OP_COUNT)
    return misuse(h, "node_add", "glowc has no op '%s' (op_type names are ONNX's, e.g. \"Conv\")", op ? op : "");
  const glow_op_info *oi = glow_op_get(k);
  if (nin < oi->min_in || nin > oi->max_in || nout < oi->min_out || nout > oi->max_out || (nin && !in) || !outs)
    return misuse(h, "node_add", "%s takes %d to %d inputs and %d to %d outputs, not %d and %d", op, oi->min_in,
                  oi->max_in, oi->min_out, oi->max_out, nin, nout);
  for (int i = 0; i < nin; i++)
    if (in[i] < -1 || in[i] >= h->g->nvals)
      return misuse(h, "node_add", "%s input %d: no value %d", op, i, in[i]);
  int *ids = glow_xmalloc(sizeof(int) * (size_t)(nout ? nout : 1));
  for (int i = 0; i < nout; i++) {
    char *nm = new_name(h, output_names ? output_names[i] : NULL, "node_add");
    if (!nm) {
      free(ids);
      return -1;
    }
    ids[i] = glow_value_add(h->g, nm);
    free(nm);
  }
  int id = glow_node_add(h->g, k, name ? name : "", nin, in, nout, ids);
  memcpy(outs, ids, sizeof(int) * (size_t)nout);
  free(ids);
  return id;
}

static int node_infer(glowc_graph *h, int id) {
  glow_node *n = live_node(h, id, "node_infer");
  if (!n)
    return -1;
  for (int i = 0; i < n->nin; i++)
    if (n->in[i] >= 0 && h->g->vals[n->in[i]].rank < 0)
      return misuse(h, "node_infer", "node %d ('%s') input %d ('%s') has no shape yet (infer its producer first)", id,
                    n->name, i, h->g->vals[n->in[i]].name);
  if (glow_op_get(n->op)->infer(h->g, n)) {
    h->failed = 1;
    return -1;
  }
  return 0;
}

static int node_set_input(glowc_graph *h, int id, int i, int v) {
  glow_node *n = live_node(h, id, "node_set_input");
  if (!n)
    return -1;
  if (i < 0 || i >= n->nin)
    return misuse(h, "node_set_input", "node %d ('%s') has %d inputs, not input %d", id, n->name, n->nin, i);
  if (v != -1 && !value(h, v, "node_set_input"))
    return -1;
  n->in[i] = v;
  return 0;
}

static int value_replace_uses(glowc_graph *h, int from, int to) {
  glow_value *f = value(h, from, "value_replace_uses"), *t = value(h, to, "value_replace_uses");
  if (!f || !t)
    return -1;
  if (from == to)
    return 0;
  glow_graph *g = h->g;
  if (f->is_output) {
    char a[256], b[256];
    if (t->is_output || t->kind != GLOW_VAL_ACT)
      return misuse(h, "value_replace_uses", "'%s' cannot stand for graph output '%s' (it is an %s)", t->name, f->name,
                    t->is_output ? "output already" : "input or constant");
    if (t->rank >= 0 && !glow_value_same_type(f, t))
      return misuse(h, "value_replace_uses", "graph output '%s' is %s; '%s' is %s", f->name,
                    glow_shape_str(f, a, sizeof a), t->name, glow_shape_str(t, b, sizeof b));
    for (int i = 0; i < g->noutputs; i++)
      if (g->outputs[i] == from)
        g->outputs[i] = to;
    t->is_output = 1;
    f->is_output = 0;
    char *name = f->name; /* the bundle's output keeps its name */
    f->name = t->name;
    t->name = name;
  }
  for (int i = 0; i < g->nnodes; i++)
    for (int k = 0; k < g->nodes[i].nin && !g->nodes[i].dead; k++)
      if (g->nodes[i].in[k] == from)
        g->nodes[i].in[k] = to;
  return 0;
}

static int node_erase(glowc_graph *h, int id) {
  glow_node *n = live_node(h, id, "node_erase");
  if (!n)
    return -1;
  for (int k = 0; k < n->nout; k++) {
    if (n->out[k] < 0)
      continue;
    const glow_value *v = &h->g->vals[n->out[k]];
    if (v->is_output)
      return misuse(h, "node_erase", "node %d ('%s') produces graph output '%s' (value_replace_uses moves it first)",
                    id, n->name, v->name);
    int user = find_use(h, n->out[k], 0, NULL);
    if (user >= 0)
      return misuse(h, "node_erase", "node %d ('%s'): its output '%s' is read by node %d ('%s')", id, n->name, v->name,
                    user, h->g->nodes[user].name);
  }
  n->dead = 1;
  return 0;
}

const glowc_pass_api glow_plugin_api = {
    .abi_version = GLOWC_PASS_ABI_VERSION,
    .size = sizeof(glowc_pass_api),
    .register_pass = glow_plugin_register,
    .error = api_error,
    .note = api_note,
    .node_count = node_count,
    .node_erased = node_erased,
    .node_op = node_op,
    .node_name = node_name,
    .node_num_inputs = node_num_inputs,
    .node_input = node_input,
    .node_num_outputs = node_num_outputs,
    .node_output = node_output,
    .attr_count = attr_count,
    .attr_name = attr_name,
    .attr_type = attr_type,
    .attr_int = attr_int,
    .attr_float = attr_float,
    .attr_string = attr_string,
    .attr_ints = attr_ints,
    .attr_floats = attr_floats,
    .set_attr_int = set_attr_int,
    .set_attr_float = set_attr_float,
    .set_attr_string = set_attr_string,
    .set_attr_ints = set_attr_ints,
    .set_attr_floats = set_attr_floats,
    .remove_attr = remove_attr,
    .value_count = value_count,
    .value_name = value_name,
    .value_dtype = value_dtype,
    .value_rank = value_rank,
    .value_dims = value_dims,
    .value_kind = value_kind,
    .value_is_output = value_is_output,
    .value_producer = value_producer,
    .value_num_uses = value_num_uses,
    .value_use = value_use,
    .constant_data = constant_data,
    .constant_add = constant_add,
    .node_add = node_add,
    .node_infer = node_infer,
    .node_set_input = node_set_input,
    .value_replace_uses = value_replace_uses,
    .node_erase = node_erase,
};
