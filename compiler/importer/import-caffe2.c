/* Caffe2 importer: predict_net.pb + init_net.pb (NetDefs) to graph IR. The
 * init_net's fills become constants; predict_net's external inputs that no
 * fill defines are the graph inputs (shapes from -model-input, since Caffe2
 * nets record none); its ops, in order (a Caffe2 net runs its ops in the
 * order listed), become nodes of ONNX semantics (opset 11) with their shapes
 * inferred as they are added; external outputs are the graph outputs. Blobs
 * written more than once (in-place ops) get a value per write: the last write
 * keeps the blob's name. Unsupported ops are all reported before anything is
 * built. */
#include <stdlib.h>
#include <string.h>

#include "importer/caffe2.h"
#include "importer/tensor-data.h"

/* The ONNX opset whose semantics the nodes have: Softmax coerces to 2-D (as
 * Caffe2's does), Unsqueeze takes axes and Clip its bounds as inputs. */
#define CAFFE2_ONNX_OPSET 11

/* ---- ops, values and nodes ---- */

static const char *str(const char *s) { return s ? s : ""; }

glow_c2_op glow_c2_op_make(const char *file, const Caffe2__OperatorDef *def) {
  glow_c2_op op = {.def = def, .type = *str(def->type) ? def->type : "<no type>", .file = file};
  const char *name = *str(def->name) ? def->name : def->n_output && *str(def->output[0]) ? def->output[0] : op.type;
  op.name = glow_xstrdup(name);
  return op;
}

int glow_c2_err(const glow_c2_op *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  glow_strbuf where = {0}, msg = {0};
  glow_sb_printf(&where, "%s:%s (%s)", op->file, op->name, op->type);
  int len = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  msg.s = glow_xmalloc((size_t)len + 1);
  va_start(ap, fmt);
  vsnprintf(msg.s, (size_t)len + 1, fmt, ap);
  va_end(ap);
  glow_error(where.s, "%s", msg.s);
  glow_sb_free(&where);
  glow_sb_free(&msg);
  return -1;
}

static int new_value(glow_c2 *c, const char *name) { return glow_value_add_unique(c->g, &c->names, name); }

int glow_c2_in(glow_c2 *c, const glow_c2_op *op, int k) {
  const char *blob = str(op->def->input[k]);
  int *v = glow_str_table_get(&c->blobs, blob);
  if (!v)
    return glow_c2_err(op, "input '%s' is not written by an earlier op, an init_net fill or an external_input", blob);
  if (*v == GLOW_C2_UNPRODUCED)
    return glow_c2_err(op, "input '%s' is an output glowc does not compute (a Dropout mask, an LRN scale, ...)", blob);
  return *v;
}

int glow_c2_out(glow_c2 *c, const glow_c2_op *op, int k) {
  const char *blob = str(op->def->output[k]);
  int *left = op->file == c->predict_path ? glow_str_table_get(&c->writes, blob) : NULL;
  int id;
  if (left && --*left > 0) { /* written again later: the last write gets the blob's name */
    glow_strbuf b = {0};
    glow_sb_printf(&b, "%s__%d", blob, *left);
    id = new_value(c, b.s);
    glow_sb_free(&b);
  } else {
    id = new_value(c, blob);
  }
  glow_str_table_put(&c->blobs, blob, id);
  return id;
}

void glow_c2_unproduced(glow_c2 *c, const glow_c2_op *op, int k) {
  if (k < (int)op->def->n_output && *str(op->def->output[k]))
    glow_str_table_put(&c->blobs, op->def->output[k], GLOW_C2_UNPRODUCED);
}

int glow_c2_tmp(glow_c2 *c, const glow_c2_op *op, const char *what) {
  glow_strbuf b = {0};
  glow_sb_printf(&b, "%s/%s", op->name, what);
  int id = new_value(c, b.s);
  glow_sb_free(&b);
  return id;
}

int glow_c2_const(glow_c2 *c, const glow_c2_op *op, const char *what, glow_dtype dt, int rank, const int64_t *dims,
                  const void *data) {
  int id = glow_c2_tmp(c, op, what);
  glow_value_make_const(c->g, id, dt, rank, dims, data);
  return id;
}

int glow_c2_node(glow_c2 *c, const glow_c2_op *op, glow_op kind, const char *what, int nin, const int *in, int nout,
                 const int *out) {
  glow_strbuf b = {0};
  glow_sb_printf(&b, what ? "%s/%s" : "%s", op->name, what);
  int id = glow_node_add(c->g, kind, b.s, nin, in, nout, out);
  glow_sb_free(&b);
  return id;
}

static glow_attr *attr_new(glow_c2 *c, int node, const char *name, glow_attr_type type) {
  glow_node *n = &c->g->nodes[node];
  n->attrs = glow_xrealloc(n->attrs, sizeof *n->attrs * (size_t)(n->nattr + 1));
  glow_attr *a = &n->attrs[n->nattr++];
  memset(a, 0, sizeof *a);
  a->name = glow_xstrdup(name);
  a->type = type;
  a->t_value = -1;
  return a;
}

void glow_c2_attr_int(glow_c2 *c, int node, const char *name, int64_t v) {
  attr_new(c, node, name, GLOW_ATTR_INT)->i = v;
}

void glow_c2_attr_float(glow_c2 *c, int node, const char *name, double v) {
  attr_new(c, node, name, GLOW_ATTR_FLOAT)->f = v;
}

void glow_c2_attr_ints(glow_c2 *c, int node, const char *name, const int64_t *v, int n) {
  glow_attr *a = attr_new(c, node, name, GLOW_ATTR_INTS);
  a->ints = glow_xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  memcpy(a->ints, v, sizeof(int64_t) * (size_t)n);
  a->n = n;
}

void glow_c2_attr_string(glow_c2 *c, int node, const char *name, const char *s) {
  attr_new(c, node, name, GLOW_ATTR_STRING)->s = glow_xstrdup(s);
}

int glow_c2_infer(glow_c2 *c, int node) {
  glow_node *n = &c->g->nodes[node];
  return glow_op_get(n->op)->infer(c->g, n);
}

void glow_c2_set_qparams(glow_c2 *c, int value, double scale, int64_t zero_point) {
  if (value >= c->nq) {
    int n = c->g->nvals + 64;
    c->qscale = glow_xrealloc(c->qscale, sizeof *c->qscale * (size_t)n);
    c->qzero = glow_xrealloc(c->qzero, sizeof *c->qzero * (size_t)n);
    for (int i = c->nq; i < n; i++)
      c->qzero[i] = INT64_MIN;
    c->nq = n;
  }
  c->qscale[value] = scale;
  c->qzero[value] = zero_point;
}

int glow_c2_qparams(const glow_c2 *c, int value, double *scale, int64_t *zero_point) {
  if (value < 0 || value >= c->nq || c->qzero[value] == INT64_MIN)
    return -1;
  *scale = c->qscale[value];
  *zero_point = c->qzero[value];
  return 0;
}

/* ---- the nets ---- */

static Caffe2__NetDef *parse_net(const char *path, const uint8_t *bytes, size_t size) {
  if (glow_pb_check_limits(bytes, size, &caffe2__net_def__descriptor, &caffe2__operator_def__descriptor, "ops",
                           path))
    return NULL;
  Caffe2__NetDef *net = caffe2__net_def__unpack(NULL, size, bytes);
  if (!net) {
    char why[160];
    glow_error(path, "not a valid Caffe2 NetDef (%s); a Caffe2 model is a folder holding predict_net.pb and "
               "init_net.pb, binary NetDefs as Caffe2 saves them",
               glow_pb_diagnose(bytes, size, why, sizeof why));
  }
  return net;
}

/* Every op of predict_net has an importer, and its input and output counts fit
 * it; the unsupported op types are reported together, with their ops. */
static int check_ops(glow_c2 *c, const Caffe2__NetDef *net) {
  int rc = 0;
  glow_str_table types = {0}; /* unsupported type -> its first op's index */
  for (size_t i = 0; i < net->n_op; i++) {
    glow_c2_op op = glow_c2_op_make(c->predict_path, net->op[i]);
    const glow_c2_op_info *info = glow_c2_op_find(op.type);
    size_t nin = op.def->n_input, nout = op.def->n_output;
    if (!info) {
      if (!glow_str_table_get(&types, op.type))
        glow_str_table_put(&types, op.type, (int)i);
    } else if (nin < (size_t)info->min_in || nin > (size_t)info->max_in || nout < (size_t)info->min_out ||
               nout > (size_t)info->max_out) {
      rc = glow_c2_err(&op, "%s takes %d to %d inputs and %d to %d outputs; this op has %zu and %zu", op.type,
                       info->min_in, info->max_in, info->min_out, info->max_out, nin, nout);
    }
    free(op.name);
  }
  if (types.n) {
    glow_strbuf list = {0}, known = {0};
    int ntypes = 0;
    for (size_t i = 0; i < net->n_op; i++) { /* in the order the types first appear */
      glow_c2_op op = glow_c2_op_make(c->predict_path, net->op[i]);
      int *first = glow_str_table_get(&types, op.type);
      if (first && *first == (int)i) {
        int count = 0;
        glow_strbuf names = {0};
        for (size_t k = i; k < net->n_op; k++) {
          glow_c2_op other = glow_c2_op_make(c->predict_path, net->op[k]);
          if (!strcmp(other.type, op.type) && count++ < 4)
            glow_sb_printf(&names, "%s%s", count > 1 ? ", " : "", other.name);
          free(other.name);
        }
        glow_sb_printf(&list, "%s%s (%d op%s: %s%s)", ntypes++ ? "; " : "", op.type, count, count > 1 ? "s" : "",
                       names.s, count > 4 ? ", ..." : "");
        glow_sb_free(&names);
      }
      free(op.name);
    }
    glow_c2_op_list(&known);
    glow_error(c->predict_path, "%d unsupported Caffe2 op type%s: %s. glowc imports %s", ntypes,
               ntypes > 1 ? "s" : "", list.s, known.s);
    glow_sb_free(&list);
    glow_sb_free(&known);
    rc = -1;
  }
  glow_str_table_free(&types);
  return rc;
}

/* A quantized -model-input: the blob is the float value of a DequantizeLinear
 * of the (quantized) input; the values made for it are named so no blob clashes. */
static int dequantize_input(glow_c2 *c, int id, int k) {
  int first = c->g->nvals;
  int f = glow_model_input_dequantize(c->g, id, c->o, k, c->predict_path);
  for (int v = first; v < c->g->nvals; v++)
    glow_str_table_put(&c->names, c->g->vals[v].name, v);
  if (f >= 0)
    glow_str_table_put(&c->blobs, c->g->vals[id].name, f);
  return f < 0 ? -1 : 0;
}

/* external_input blobs that no init_net fill defines; each needs -model-input. */
static int add_inputs(glow_c2 *c, const Caffe2__NetDef *net) {
  glow_graph *g = c->g;
  const glow_import_options *o = c->o;
  int rc = 0;
  g->inputs = glow_xmalloc(sizeof(int) * (net->n_external_input + 1));
  for (size_t i = 0; i < net->n_external_input; i++) {
    const char *name = str(net->external_input[i]);
    if (glow_str_table_get(&c->blobs, name))
      continue; /* a weight from init_net (or listed twice) */
    int id = new_value(c, name);
    glow_str_table_put(&c->blobs, name, id);
    g->vals[id].kind = GLOW_VAL_INPUT;
    g->inputs[g->ninputs++] = id;
    int k = glow_model_input_find(o, name);
    if (k < 0) {
      glow_error(c->predict_path, "input '%s' has no shape: Caffe2 nets do not record the shapes of their inputs; "
                 "pass -model-input=%s,float,[d0,d1,...] (e.g. [1,3,224,224] for an image classifier)", name, name);
      rc = -1;
    } else if (glow_model_input_bare(o, k)) {
      glow_error(c->predict_path, "input '%s' has no type or shape: -model-input gives only its name, and Caffe2 nets "
                 "do not record the types and shapes of their inputs; pass -model-input=%s,float,[d0,d1,...]", name,
                 name);
      rc = -1;
    } else if (!glow_dtype_size(o->input_types[k]) || o->input_ranks[k] < 0 || o->input_ranks[k] > GLOW_MAX_RANK) {
      rc = -1;
      glow_error(c->predict_path, "-model-input for '%s' has an unsupported type or rank", name);
    } else {
      glow_value_set_shape(&g->vals[id], o->input_types[k], o->input_ranks[k], o->input_dims[k]);
      if (glow_model_input_quantized(o, k))
        rc |= dequantize_input(c, id, k);
    }
  }
  for (int k = 0; k < o->ninputs; k++) {
    int *v = glow_str_table_get(&c->blobs, o->input_names[k]), input = 0;
    for (int i = 0; i < g->ninputs; i++)
      input |= !strcmp(g->vals[g->inputs[i]].name, o->input_names[k]);
    if (input)
      continue;
    glow_strbuf list = {0};
    for (int i = 0; i < g->ninputs; i++)
      glow_sb_printf(&list, "%s'%s'", i ? ", " : "", g->vals[g->inputs[i]].name);
    glow_error(c->predict_path, "-model-input names '%s', %s; the net's inputs are: %s", o->input_names[k],
               v ? "which is a weight from init_net, not an input" : "but predict_net has no such external_input",
               g->ninputs ? list.s : "(none)");
    glow_sb_free(&list);
    rc = -1;
  }
  return rc;
}

static int add_outputs(glow_c2 *c, const Caffe2__NetDef *net) {
  glow_graph *g = c->g;
  int rc = 0;
  g->outputs = glow_xmalloc(sizeof(int) * (net->n_external_output + 1));
  for (size_t i = 0; i < net->n_external_output; i++) {
    const char *name = str(net->external_output[i]);
    int *v = glow_str_table_get(&c->blobs, name);
    if (!v || *v < 0) {
      rc = -1;
      glow_error(c->predict_path, "external_output '%s' is %s", name,
                 v ? "an output glowc does not compute" : "not written by any op");
    } else if (g->vals[*v].is_output) {
      rc = -1;
      glow_error(c->predict_path, "external_output '%s' is listed twice", name);
    } else {
      g->vals[*v].is_output = 1;
      g->outputs[g->noutputs++] = *v;
    }
  }
  if (!net->n_external_output) {
    glow_error(c->predict_path, "predict_net lists no external_output: glowc cannot tell which blobs the bundle "
               "computes");
    rc = -1;
  }
  return rc;
}

static int import_nets(glow_c2 *c, const Caffe2__NetDef *predict, const Caffe2__NetDef *init) {
  for (size_t i = 0; i < predict->n_op; i++)
    for (size_t k = 0; k < predict->op[i]->n_output; k++) {
      const char *blob = str(predict->op[i]->output[k]);
      int *n = glow_str_table_get(&c->writes, blob);
      if (n)
        ++*n;
      else
        glow_str_table_put(&c->writes, blob, 1);
    }
  int rc = glow_c2_init_net(c, init);
  rc |= check_ops(c, predict);
  if (rc || add_inputs(c, predict))
    return -1;
  for (size_t i = 0; i < predict->n_op && !rc; i++) {
    glow_c2_op op = glow_c2_op_make(c->predict_path, predict->op[i]);
    for (size_t k = 0; k < op.def->n_output && !rc; k++)
      if (!*str(op.def->output[k]))
        rc = glow_c2_err(&op, "output %zu has no name", k);
    for (size_t k = 0; k < op.def->n_input && !rc; k++)
      if (!*str(op.def->input[k]))
        rc = glow_c2_err(&op, "input %zu has no name", k);
    if (!rc)
      rc = glow_c2_op_find(op.type)->emit(c, &op);
    free(op.name);
  }
  return rc || add_outputs(c, predict) ? -1 : 0;
}

glow_graph *glow_import_caffe2_bytes(const void *predict, size_t predict_size, const void *init, size_t init_size,
                                     const char *predict_path, const char *init_path, const glow_import_options *o) {
  static const glow_import_options none;
  Caffe2__NetDef *pn = parse_net(predict_path, predict, predict_size);
  Caffe2__NetDef *in = parse_net(init_path, init, init_size);
  glow_c2 c = {.predict_path = predict_path, .init_path = init_path, .o = o ? o : &none};
  int rc = !pn || !in ? -1 : 0;
  if (!rc) {
    c.g = glow_graph_create(predict_path);
    c.g->opset = CAFFE2_ONNX_OPSET;
    rc = import_nets(&c, pn, in);
  }
  glow_str_table_free(&c.blobs);
  glow_str_table_free(&c.writes);
  glow_str_table_free(&c.names);
  free(c.qscale);
  free(c.qzero);
  if (pn)
    caffe2__net_def__free_unpacked(pn, NULL);
  if (in)
    caffe2__net_def__free_unpacked(in, NULL);
  if (rc) {
    glow_graph_free(c.g);
    return NULL;
  }
  return c.g;
}

glow_graph *glow_import_caffe2(const char *predict_path, const char *init_path, const glow_import_options *o) {
  uint8_t *p = NULL, *i = NULL;
  size_t psize, isize;
  int rc = glow_pb_file_read(predict_path, &p, &psize);
  rc |= glow_pb_file_read(init_path, &i, &isize);
  glow_graph *g = rc ? NULL : glow_import_caffe2_bytes(p, psize, i, isize, predict_path, init_path, o);
  free(p);
  free(i);
  return g;
}
