/* ONNX importer: ModelProto to graph IR. Produces constants with their data,
 * inputs with full shapes, nodes in topological order and outputs by name
 * (their shapes are inferred later). Checks every node before failing, so all
 * unsupported ops are reported at once. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "importer/tensor-data.h"

/* One ONNX node on its way into the graph. */
typedef struct {
  glow_op op;
  int konst; /* a Constant node: folded into its output value, never a graph node */
  char *name; /* the model's name, or "<op_type>_<index>" so every error can name it */
  int nin, nout;
  int *in, *out;
} pending;

typedef struct {
  const char *path;
  const glow_import_options *o;
  const Onnx__GraphProto *gp;
  glow_graph *g;
  int *slots; /* value name -> id, open addressing, -1 empty */
  size_t mask;
  pending *pn; /* one per ONNX node, in model order */
  int64_t *batch; /* by -model-input option: the model's batch where the option gives another, else -1 */
} importer;

static const char *str(const char *s) { return s ? s : ""; }

static char *vfmt(const char *fmt, va_list ap) {
  va_list cp;
  va_copy(cp, ap);
  int len = vsnprintf(NULL, 0, fmt, cp);
  va_end(cp);
  char *s = glow_xmalloc((size_t)len + 1);
  vsnprintf(s, (size_t)len + 1, fmt, ap);
  return s;
}

/* "FILE: error: ..." */
static int err(importer *im, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = vfmt(fmt, ap);
  va_end(ap);
  glow_error(im->path, "%s", msg);
  free(msg);
  return -1;
}

/* "FILE:NODE (OpType)" for node i, malloc'd. */
static char *node_where(importer *im, size_t i) {
  glow_strbuf b = {0};
  glow_sb_printf(&b, "%s:%s (%s)", im->path, im->pn[i].name, str(im->gp->node[i]->op_type));
  return b.s;
}

/* "FILE:NODE (OpType): error: ..." before the node is in the graph. */
static int node_err(importer *im, size_t i, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = vfmt(fmt, ap);
  va_end(ap);
  char *where = node_where(im, i);
  glow_error(where, "%s", msg);
  free(where);
  free(msg);
  return -1;
}

/* FNV-1a: the table only affects speed, never the output. */
static size_t hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 1099511628211ull;
  return (size_t)h;
}

static int *slot(importer *im, const char *name) {
  for (size_t i = hash(name) & im->mask;; i = (i + 1) & im->mask) {
    int id = im->slots[i];
    if (id < 0 || !strcmp(im->g->vals[id].name, name))
      return &im->slots[i];
  }
}

static int lookup(importer *im, const char *name) { return *slot(im, name); }

/* A new value named `name`; -1 if the name is already defined (ONNX is SSA). */
static int define(importer *im, const char *name) {
  int *s = slot(im, name);
  if (*s >= 0)
    return -1;
  return *s = glow_value_add(im->g, name);
}

/* Takes ownership of data. */
static void set_const(glow_graph *g, int id, glow_dtype dt, int rank, const int64_t *dims, void *data) {
  glow_value *v = &g->vals[id];
  glow_value_set_shape(v, dt, rank, dims);
  free(v->data);
  v->data = data;
  v->kind = GLOW_VAL_CONST;
}

static int read_opset(importer *im, const Onnx__ModelProto *m) {
  int64_t v = -1;
  for (size_t i = 0; i < m->n_opset_import; i++)
    if (glow_onnx_default_domain(m->opset_import[i]->domain) && m->opset_import[i]->has_version)
      v = m->opset_import[i]->version;
  /* A model of other domains only (e.g. training ops) goes on, so its nodes are reported. */
  for (size_t i = 0; v < 0 && i < m->graph->n_node; i++)
    if (glow_onnx_default_domain(m->graph->node[i]->domain))
      return err(im, "the model imports no default-domain (ai.onnx) opset");
  /* Ops check their own version-dependent semantics, so old opsets (the node
   * tests still use 1 and 6 for ops unchanged since) are accepted too. */
  if (v >= 0 && (v < 1 || v > 20))
    return err(im, "opset %lld is not supported (glowc supports ai.onnx opsets 1 to 20)", (long long)v);
  im->g->opset = v < 0 ? 0 : v;
  return 0;
}

/* Sequence, optional, map and sparse values are refused wherever they appear. */
static int check_tensor_type(importer *im, const Onnx__ValueInfoProto *vi, const char *role) {
  const Onnx__TypeProto *t = vi->type;
  if (t && (t->has_sequence_type || t->has_optional_type))
    return err(im, "%s '%s': sequence and optional types are not supported", role, str(vi->name));
  if (t && (t->has_map_type || t->has_sparse_tensor_type))
    return err(im, "%s '%s': map and sparse tensor types are not supported", role, str(vi->name));
  return 0;
}

static void add_initializers(importer *im) {
  if (im->gp->n_sparse_initializer)
    err(im, "sparse initializers are not supported");
  for (size_t i = 0; i < im->gp->n_initializer; i++) {
    const Onnx__TensorProto *t = im->gp->initializer[i];
    if (!t->name || !*t->name) {
      err(im, "initializer %zu has no name", i);
      continue;
    }
    /* Defined even when its data is refused, so its uses report nothing more. */
    int id = define(im, t->name);
    if (id < 0) {
      err(im, "initializer '%s' is defined twice", t->name);
      continue;
    }
    im->g->vals[id].kind = GLOW_VAL_CONST;
    glow_strbuf what = {0};
    glow_sb_printf(&what, "initializer '%s'", t->name);
    glow_dtype dt;
    int rank;
    int64_t dims[GLOW_MAX_RANK];
    void *data;
    if (!glow_tensor_from_pb(t, im->path, what.s, &dt, &rank, dims, &data))
      set_const(im->g, id, dt, rank, dims, data);
    glow_sb_free(&what);
  }
}

/* The model's declared shape, e.g. "float[N,3,?,224]", for messages. */
static void model_shape(const Onnx__TypeProto__Tensor *tt, glow_strbuf *b) {
  glow_sb_printf(b, "%s", tt && tt->has_elem_type ? glow_dtype_name((glow_dtype)tt->elem_type) : "?");
  if (!tt || !tt->shape) {
    glow_sb_printf(b, "[unknown shape]");
    return;
  }
  glow_sb_printf(b, "[");
  for (size_t i = 0; i < tt->shape->n_dim; i++) {
    const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
    const char *sep = i ? "," : "";
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
      glow_sb_printf(b, "%s%lld", sep, (long long)d->dim_value);
    else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM && *str(d->dim_param))
      glow_sb_printf(b, "%s%s", sep, d->dim_param);
    else
      glow_sb_printf(b, "%s?", sep);
  }
  glow_sb_printf(b, "]");
}

static int option_index(int n, const char **names, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], name))
      return i;
  return -1;
}

/* The model's fixed size of dimension i, or -1 (a symbol, unknown or absent). */
static int64_t declared_dim(const Onnx__TypeProto__Tensor *tt, int i) {
  if (!tt || !tt->shape || (size_t)i >= tt->shape->n_dim)
    return -1;
  const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
  return d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ? d->dim_value : -1;
}

/* -model-input=name,type[,scale,offset],[dims] sets the input. The batch
 * (dimension 0) may differ from the model's, as in Glow; a type or another
 * dimension that differs is refused. A quantized form needs a float input. */
static int input_from_option(importer *im, int k, const Onnx__TypeProto__Tensor *tt, glow_value *v) {
  const glow_import_options *o = im->o;
  int rank = o->input_ranks[k];
  if (!glow_dtype_size(o->input_types[k]) || rank < 0 || rank > GLOW_MAX_RANK)
    return err(im, "-model-input for '%s' has an unsupported type or rank", v->name);
  for (int i = 0; i < rank; i++)
    if (o->input_dims[k][i] < 0)
      return err(im, "-model-input for '%s' has a negative dimension", v->name);
  glow_value_set_shape(v, o->input_types[k], rank, o->input_dims[k]);
  int32_t model_dt = tt && tt->has_elem_type ? tt->elem_type : 0;
  if (glow_model_input_quantized(o, k) && model_dt && model_dt != GLOW_DT_F32)
    return err(im, "-model-input gives input '%s' a quantized type (%sq), but the model's input is %s: the quantized "
               "forms carry a float input; give its own type instead",
               v->name, glow_dtype_name(v->dt), model_dt < GLOW_DT_COUNT ? glow_dtype_name((glow_dtype)model_dt) : "?");
  int differ = model_dt && model_dt != (int32_t)(glow_model_input_quantized(o, k) ? GLOW_DT_F32 : v->dt);
  int batch = 0; /* only dimension 0 differs */
  if (tt && tt->shape) {
    differ |= tt->shape->n_dim != (size_t)rank;
    for (int i = 0; !differ && i < rank; i++) {
      int64_t d = declared_dim(tt, i);
      if (d >= 0 && d != v->dims[i] && i)
        differ = 1;
      else if (d >= 0 && d != v->dims[i])
        batch = 1;
    }
  }
  if (!differ) {
    if (batch && !im->batch) {
      im->batch = glow_xmalloc(sizeof *im->batch * (size_t)o->ninputs);
      for (int i = 0; i < o->ninputs; i++)
        im->batch[i] = -1;
    }
    if (batch)
      im->batch[k] = declared_dim(tt, 0);
    return 0;
  }
  char given[256];
  glow_strbuf declared = {0};
  model_shape(tt, &declared);
  err(im, "-model-input gives input '%s' as %s, but the model declares %s (only dimension 0, the batch, may differ)",
      v->name, glow_shape_str(v, given, sizeof given), declared.s);
  glow_sb_free(&declared);
  return -1;
}

/* Dtype and shape of a graph input: from -model-input, else from the model
 * with each dim_param resolved through -onnx-define-symbol. */
static int input_shape(importer *im, const Onnx__ValueInfoProto *vi, glow_value *v) {
  const glow_import_options *o = im->o;
  const Onnx__TypeProto__Tensor *tt = vi->type ? vi->type->tensor_type : NULL;
  int k = glow_model_input_find(o, v->name);
  if (k >= 0 && !glow_model_input_bare(o, k))
    return input_from_option(im, k, tt, v);
  int32_t dt = tt && tt->has_elem_type ? tt->elem_type : 0;
  if (!dt)
    return err(im, "input '%s' has no element type in the model; pass -model-input=%s,TYPE,[DIMS]", v->name, v->name);
  if (dt == GLOW_DT_STRING)
    return err(im, "input '%s': string tensors are not supported", v->name);
  if (dt >= GLOW_DT_COUNT || !glow_dtype_size((glow_dtype)dt))
    return err(im, "input '%s' has element type %d (%s), which is not supported", v->name, (int)dt,
               dt == 14 || dt == 15 ? "complex" : "unknown");
  const char *tname = glow_dtype_name((glow_dtype)dt);
  if (!tt->shape)
    return err(im, "input '%s' has no shape in the model; pass -model-input=%s,%s,[DIMS]", v->name, v->name, tname);
  size_t rank = tt->shape->n_dim;
  if (rank > GLOW_MAX_RANK)
    return err(im, "input '%s' has rank %zu, more than glowc supports (%d)", v->name, rank, GLOW_MAX_RANK);
  int64_t dims[GLOW_MAX_RANK];
  int bad = 0;
  glow_strbuf declared = {0};
  model_shape(tt, &declared);
  for (size_t i = 0; i < rank; i++) {
    const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
    const char *sym = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM ? str(d->dim_param) : "";
    int s = *sym ? option_index(o->nsymbols, o->symbol_names, sym) : -1;
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value >= 0) {
      dims[i] = d->dim_value;
    } else if (s >= 0 && o->symbol_values[s] >= 0) {
      dims[i] = o->symbol_values[s];
    } else if (*sym) {
      bad = err(im, "input '%s' (%s): dimension %zu is the symbol '%s', which has no value; pass "
                "-onnx-define-symbol=%s,VALUE or -model-input=%s,%s,[DIMS]",
                v->name, declared.s, i, sym, sym, v->name, tname);
    } else {
      bad = err(im, "input '%s' (%s): dimension %zu has no size; pass -model-input=%s,%s,[DIMS]", v->name,
                declared.s, i, v->name, tname);
    }
  }
  glow_sb_free(&declared);
  if (bad)
    return -1;
  glow_value_set_shape(v, (glow_dtype)dt, (int)rank, dims);
  return 0;
}

/* Graph inputs that have an initializer are constants, not inputs. */
static void add_inputs(importer *im) {
  glow_graph *g = im->g;
  g->inputs = glow_xmalloc(sizeof(int) * (im->gp->n_input + 1));
  for (size_t i = 0; i < im->gp->n_input; i++) {
    const Onnx__ValueInfoProto *vi = im->gp->input[i];
    if (!vi->name || !*vi->name) {
      err(im, "graph input %zu has no name", i);
      continue;
    }
    int id = lookup(im, vi->name);
    if (id >= 0 && g->vals[id].kind == GLOW_VAL_CONST)
      continue;
    if ((id = define(im, vi->name)) < 0) {
      err(im, "graph input '%s' is listed twice", vi->name);
      continue;
    }
    g->vals[id].kind = GLOW_VAL_INPUT;
    g->inputs[g->ninputs++] = id;
    if (!check_tensor_type(im, vi, "input"))
      input_shape(im, vi, &g->vals[id]);
  }
}

/* Every -model-input must name one of the model's inputs. */
static void check_input_options(importer *im) {
  glow_graph *g = im->g;
  for (int k = 0; k < im->o->ninputs; k++) {
    const char *name = im->o->input_names[k];
    int id = lookup(im, name);
    if (id >= 0 && g->vals[id].kind == GLOW_VAL_INPUT)
      continue;
    glow_strbuf list = {0};
    for (int i = 0; i < g->ninputs; i++)
      glow_sb_printf(&list, "%s'%s'", i ? ", " : "", g->vals[g->inputs[i]].name);
    err(im, "-model-input names '%s', %s; the model's inputs are: %s", name,
        id >= 0 ? "which is an initializer (a constant) in this model, not an input" : "but the model has no such input",
        g->ninputs ? list.s : "(none)");
    glow_sb_free(&list);
  }
}

/* AttributeProto.type, or for old models that leave it out, the field that is set. */
static int attr_type(const Onnx__AttributeProto *a) {
  if (a->has_type)
    return a->type;
  if (a->has_f)
    return GLOW_ATTR_FLOAT;
  if (a->has_i)
    return GLOW_ATTR_INT;
  if (a->has_s)
    return GLOW_ATTR_STRING;
  if (a->t)
    return GLOW_ATTR_TENSOR;
  if (a->has_g)
    return GLOW_ATTR_GRAPH;
  if (a->n_floats)
    return GLOW_ATTR_FLOATS;
  if (a->n_ints)
    return GLOW_ATTR_INTS;
  if (a->n_strings)
    return GLOW_ATTR_STRINGS;
  if (a->n_tensors)
    return 9; /* TENSORS */
  if (a->n_graphs)
    return 10; /* GRAPHS */
  return a->has_sparse_tensor ? 11 : GLOW_ATTR_UNDEF;
}

/* A Constant node's value, straight into its output value. */
static void constant_node(importer *im, size_t i) {
  const Onnx__NodeProto *np = im->gp->node[i];
  pending *p = &im->pn[i];
  if (np->n_input || np->n_output != 1 || p->out[0] < 0) {
    node_err(im, i, "a Constant has no inputs and one output (it has %zu and %zu)", np->n_input, np->n_output);
    return;
  }
  if (np->n_attribute != 1) {
    node_err(im, i, "a Constant has exactly one attribute (value, value_float, value_floats, value_int or value_ints)");
    return;
  }
  const Onnx__AttributeProto *a = np->attribute[0];
  const char *an = str(a->name);
  int type = attr_type(a);
  glow_dtype dt = GLOW_DT_F32;
  int rank = 0;
  int64_t dims[GLOW_MAX_RANK];
  void *data = NULL;
  if (!strcmp(an, "value") && type == GLOW_ATTR_TENSOR && a->t) {
    char *where = node_where(im, i);
    int rc = glow_tensor_from_pb(a->t, where, "attribute 'value'", &dt, &rank, dims, &data);
    free(where);
    if (rc)
      return;
  } else if (!strcmp(an, "value_float") && type == GLOW_ATTR_FLOAT) {
    data = glow_xmalloc(sizeof(float));
    *(float *)data = a->f;
  } else if (!strcmp(an, "value_floats") && type == GLOW_ATTR_FLOATS) {
    rank = 1;
    dims[0] = (int64_t)a->n_floats;
    data = glow_xmalloc(sizeof(float) * a->n_floats);
    memcpy(data, a->floats, sizeof(float) * a->n_floats);
  } else if ((!strcmp(an, "value_int") && type == GLOW_ATTR_INT) ||
             (!strcmp(an, "value_ints") && type == GLOW_ATTR_INTS)) {
    dt = GLOW_DT_I64;
    rank = type == GLOW_ATTR_INTS;
    dims[0] = (int64_t)a->n_ints;
    data = glow_xmalloc(sizeof(int64_t) * (rank ? a->n_ints : 1));
    if (rank)
      memcpy(data, a->ints, sizeof(int64_t) * a->n_ints);
    else
      *(int64_t *)data = a->i;
  } else if (!strcmp(an, "sparse_value")) {
    node_err(im, i, "sparse constants (attribute 'sparse_value') are not supported");
    return;
  } else if (!strcmp(an, "value_string") || !strcmp(an, "value_strings")) {
    node_err(im, i, "string constants (attribute '%s') are not supported", an);
    return;
  } else {
    node_err(im, i, "unexpected Constant attribute '%s' (type %d)", an, type);
    return;
  }
  set_const(im->g, p->out[0], dt, rank, dims, data);
}

/* Pass 1: names every node and defines every node output, so later passes can
 * resolve references in any order; Constant nodes become constants. */
static void define_node_outputs(importer *im) {
  for (size_t i = 0; i < im->gp->n_node; i++) {
    const Onnx__NodeProto *np = im->gp->node[i];
    pending *p = &im->pn[i];
    glow_strbuf name = {0};
    /* As Glow's loader names operators (loadOperatorName): a node without a name
     * is <op type>_<first output>, so quantization profiles from Glow map onto it. */
    if (np->name && *np->name)
      glow_sb_printf(&name, "%s", np->name);
    else if (np->n_output && np->output[0] && *np->output[0])
      glow_sb_printf(&name, "%s_%s", np->op_type && *np->op_type ? np->op_type : "node", np->output[0]);
    else
      glow_sb_printf(&name, "%s_%zu", np->op_type && *np->op_type ? np->op_type : "node", i);
    p->name = name.s;
    p->op = GLOW_OP_COUNT;
    p->konst = glow_onnx_default_domain(np->domain) && !strcmp(str(np->op_type), "Constant");
    p->nout = (int)np->n_output;
    p->out = glow_xmalloc(sizeof(int) * (np->n_output + 1));
    for (size_t k = 0; k < np->n_output; k++) {
      const char *o = str(np->output[k]);
      p->out[k] = *o ? define(im, o) : -1;
      if (*o && p->out[k] < 0)
        node_err(im, i, "output '%s' is already defined elsewhere (values are assigned once)", o);
    }
    if (p->konst)
      constant_node(im, i);
  }
}

/* "1 input", "2 to 3 inputs", "at least 1 input". */
static const char *count_str(int lo, int hi, const char *noun, char *buf, size_t cap) {
  const char *pl = hi == 1 || (hi < 0 && lo == 1) ? "" : "s";
  if (hi < 0)
    snprintf(buf, cap, "at least %d %s%s", lo, noun, pl);
  else if (lo == hi)
    snprintf(buf, cap, "%d %s%s", lo, noun, pl);
  else
    snprintf(buf, cap, "%d to %d %s%s", lo, hi, noun, pl);
  return buf;
}

/* Pass 2: maps the op and resolves input names; reports unsupported ops,
 * wrong input/output counts and undefined values. */
static void resolve_node(importer *im, size_t i) {
  const Onnx__NodeProto *np = im->gp->node[i];
  pending *p = &im->pn[i];
  const char *op_type = str(np->op_type);
  const glow_op_info *info = NULL;
  if (p->konst)
    return;
  if (!*op_type) {
    node_err(im, i, "node has no op_type");
  } else if (!glow_onnx_domain_ok(np->domain, op_type) || (p->op = glow_op_from_onnx(op_type)) == GLOW_OP_COUNT) {
    glow_strbuf where = {0}, why = {0};
    glow_sb_printf(&where, "%s:%s", im->path, p->name);
    glow_onnx_domain_why(np->domain, op_type, &why);
    if (!why.s)
      glow_onnx_refusal_why(np->domain, op_type, &why);
    glow_error(where.s, "unsupported op '%s' (domain %s)%s", op_type, *str(np->domain) ? np->domain : "ai.onnx",
               why.s ? why.s : "");
    glow_sb_free(&where);
    glow_sb_free(&why);
  } else {
    info = glow_op_get(p->op);
    char a[48], b[48];
    if (np->n_input < (size_t)info->min_in || (info->max_in >= 0 && np->n_input > (size_t)info->max_in) ||
        np->n_output < (size_t)info->min_out || (info->max_out >= 0 && np->n_output > (size_t)info->max_out))
      node_err(im, i, "%s takes %s and %s; this node has %zu and %zu", op_type,
               count_str(info->min_in, info->max_in, "input", a, sizeof a),
               count_str(info->min_out, info->max_out, "output", b, sizeof b), np->n_input, np->n_output);
    for (int k = 0; k < info->min_out && k < p->nout; k++)
      if (p->out[k] < 0)
        node_err(im, i, "required output %d has no name", k);
  }
  p->nin = (int)np->n_input;
  p->in = glow_xmalloc(sizeof(int) * (np->n_input + 1));
  for (size_t k = 0; k < np->n_input; k++) {
    const char *name = str(np->input[k]);
    p->in[k] = *name ? lookup(im, name) : -1;
    if (!*name && info && k < (size_t)info->min_in)
      node_err(im, i, "required input %zu is empty", k);
    else if (*name && p->in[k] < 0)
      node_err(im, i, "input '%s' is not produced by any node and is neither an initializer nor a graph input", name);
  }
}

static void add_outputs(importer *im) {
  glow_graph *g = im->g;
  g->outputs = glow_xmalloc(sizeof(int) * (im->gp->n_output + 1));
  for (size_t i = 0; i < im->gp->n_output; i++) {
    const Onnx__ValueInfoProto *vi = im->gp->output[i];
    if (!vi->name || !*vi->name) {
      err(im, "graph output %zu has no name", i);
      continue;
    }
    if (check_tensor_type(im, vi, "output"))
      continue;
    int id = lookup(im, vi->name);
    if (id < 0)
      err(im, "graph output '%s' is not produced by any node and is neither an initializer nor a graph input",
          vi->name);
    else if (g->vals[id].is_output)
      err(im, "graph output '%s' is listed twice", vi->name);
    else
      g->vals[id].is_output = 1, g->outputs[g->noutputs++] = id;
  }
  for (size_t i = 0; i < im->gp->n_value_info; i++)
    check_tensor_type(im, im->gp->value_info[i], "value");
}

/* A binary min-heap of node indices: Kahn's algorithm taking the lowest ready
 * index keeps the model's order wherever the model allows it. */
static void heap_push(int *h, int *n, int v) {
  int i = (*n)++;
  for (; i && h[(i - 1) / 2] > v; i = (i - 1) / 2)
    h[i] = h[(i - 1) / 2];
  h[i] = v;
}

static int heap_pop(int *h, int *n) {
  int top = h[0], v = h[--*n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n)
      break;
    if (c + 1 < *n && h[c + 1] < h[c])
      c++;
    if (h[c] >= v)
      break;
    h[i] = h[c];
    i = c;
  }
  h[i] = v;
  return top;
}

/* Pass 3: a topological order of the nodes (the model's own when it is one);
 * NULL after an error if the graph has a cycle. */
static int *topo_order(importer *im) {
  int n = (int)im->gp->n_node, nv = im->g->nvals;
  int *order = glow_xmalloc(sizeof(int) * (size_t)(n + 1));
  int *vprod = glow_xmalloc(sizeof(int) * (size_t)(nv + 1));
  for (int v = 0; v < nv; v++)
    vprod[v] = -1;
  for (int i = 0; i < n; i++)
    for (int k = 0; !im->pn[i].konst && k < im->pn[i].nout; k++)
      if (im->pn[i].out[k] >= 0)
        vprod[im->pn[i].out[k]] = i;
  int sorted = 1;
  size_t nedges = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < im->pn[i].nin; k++)
      if (im->pn[i].in[k] >= 0 && vprod[im->pn[i].in[k]] >= 0)
        nedges++, sorted &= vprod[im->pn[i].in[k]] < i;
  for (int i = 0; i < n; i++)
    order[i] = i;
  if (sorted) {
    free(vprod);
    return order;
  }
  /* Consumers of each node as compressed rows: start[p] .. start[p+1]. */
  int *start = glow_xcalloc((size_t)n + 2, sizeof(int));
  int *adj = glow_xmalloc(sizeof(int) * (nedges + 1));
  int *indeg = glow_xcalloc((size_t)n + 1, sizeof(int));
  int *heap = glow_xmalloc(sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; i++)
    for (int k = 0; k < im->pn[i].nin; k++)
      if (im->pn[i].in[k] >= 0 && vprod[im->pn[i].in[k]] >= 0)
        start[vprod[im->pn[i].in[k]] + 2]++, indeg[i]++;
  for (int i = 0; i < n; i++)
    start[i + 2] += start[i + 1];
  for (int i = 0; i < n; i++)
    for (int k = 0; k < im->pn[i].nin; k++)
      if (im->pn[i].in[k] >= 0 && vprod[im->pn[i].in[k]] >= 0)
        adj[start[vprod[im->pn[i].in[k]] + 1]++] = i;
  int nheap = 0, done = 0;
  for (int i = 0; i < n; i++)
    if (!indeg[i])
      heap_push(heap, &nheap, i);
  while (nheap) {
    int p = heap_pop(heap, &nheap);
    order[done++] = p;
    for (int e = start[p]; e < start[p + 1]; e++)
      if (!--indeg[adj[e]])
        heap_push(heap, &nheap, adj[e]);
  }
  if (done < n) {
    for (int i = 0; i < n; i++)
      if (indeg[i]) {
        node_err(im, (size_t)i, "the graph has a cycle through this node");
        break;
      }
    free(order);
    order = NULL;
  }
  free(vprod);
  free(start);
  free(adj);
  free(indeg);
  free(heap);
  return order;
}

static char *bytes_dup(ProtobufCBinaryData b) {
  char *s = glow_xmalloc(b.len + 1);
  if (b.len)
    memcpy(s, b.data, b.len);
  s[b.len] = 0;
  return s;
}

static void convert_attr(importer *im, size_t i, const Onnx__AttributeProto *a, glow_attr *at) {
  at->name = glow_xstrdup(str(a->name));
  at->t_value = -1;
  int type = attr_type(a);
  at->type = type <= GLOW_ATTR_STRINGS ? (glow_attr_type)type : GLOW_ATTR_UNDEF;
  size_t n = type == GLOW_ATTR_FLOATS ? a->n_floats : type == GLOW_ATTR_INTS ? a->n_ints : a->n_strings;
  if (n > INT_MAX) {
    node_err(im, i, "attribute '%s' has too many values", at->name);
    return;
  }
  switch (type) {
  case GLOW_ATTR_FLOAT: at->f = a->f; break;
  case GLOW_ATTR_INT: at->i = a->i; break;
  case GLOW_ATTR_STRING: at->s = bytes_dup(a->s); break;
  case GLOW_ATTR_FLOATS:
    at->floats = glow_xmalloc(sizeof(double) * n);
    for (size_t k = 0; k < n; k++)
      at->floats[k] = a->floats[k];
    at->n = (int)n;
    break;
  case GLOW_ATTR_INTS:
    at->ints = glow_xmalloc(sizeof(int64_t) * n);
    if (n)
      memcpy(at->ints, a->ints, sizeof(int64_t) * n);
    at->n = (int)n;
    break;
  case GLOW_ATTR_STRINGS:
    at->strings = glow_xcalloc(n, sizeof(char *));
    at->n = (int)n;
    for (size_t k = 0; k < n; k++)
      at->strings[k] = bytes_dup(a->strings[k]);
    break;
  case GLOW_ATTR_TENSOR: {
    glow_dtype dt;
    int rank;
    int64_t dims[GLOW_MAX_RANK];
    void *data;
    char *where = node_where(im, i);
    glow_strbuf what = {0};
    glow_sb_printf(&what, "attribute '%s'", at->name);
    if (!a->t)
      glow_error(where, "%s has no tensor", what.s);
    else if (!glow_tensor_from_pb(a->t, where, what.s, &dt, &rank, dims, &data))
      set_const(im->g, at->t_value = glow_value_add(im->g, NULL), dt, rank, dims, data);
    free(where);
    glow_sb_free(&what);
    break;
  }
  case GLOW_ATTR_GRAPH:
  case 10: /* GRAPHS */
    node_err(im, i, "attribute '%s' holds a subgraph; control flow (If, Loop, Scan) is not supported", at->name);
    break;
  default:
    node_err(im, i, "attribute '%s' has type %d, which glowc does not support", at->name, type);
  }
}

/* Pass 4: the graph nodes with their attributes, in topological order. */
static void add_nodes(importer *im, const int *order) {
  for (size_t j = 0; j < im->gp->n_node; j++) {
    size_t i = (size_t)order[j];
    const Onnx__NodeProto *np = im->gp->node[i];
    pending *p = &im->pn[i];
    if (p->konst)
      continue;
    int id = glow_node_add(im->g, p->op, p->name, p->nin, p->in, p->nout, p->out);
    glow_node *n = &im->g->nodes[id];
    n->attrs = glow_xcalloc(np->n_attribute, sizeof *n->attrs);
    for (size_t k = 0; k < np->n_attribute; k++)
      convert_attr(im, i, np->attribute[k], &n->attrs[n->nattr++]);
  }
}

static Onnx__ModelProto *parse_model(const char *path, const uint8_t *bytes, size_t size) {
  if (glow_pb_check_limits(bytes, size, &onnx__model_proto__descriptor, &onnx__node_proto__descriptor, "nodes",
                           path))
    return NULL;
  Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, size, bytes);
  if (!m || !m->graph) {
    char why[160];
    glow_error(path, "not a valid ONNX model (%s)",
               m ? "it has no graph" : glow_pb_diagnose(bytes, size, why, sizeof why));
    if (m)
      onnx__model_proto__free_unpacked(m, NULL);
    m = NULL;
  }
  return m;
}

/* The inputs -model-input gives a quantized form: their float values come from a DequantizeLinear. */
static void dequantize_inputs(importer *im) {
  int any = 0;
  for (int k = 0; k < im->o->ninputs; k++)
    if (glow_model_input_quantized(im->o, k)) {
      glow_model_input_dequantize(im->g, lookup(im, im->o->input_names[k]), im->o, k, im->path);
      any = 1;
    }
  if (any && glow_graph_topo_order(im->g))
    unreachable(); /* the DequantizeLinear reads only a graph input */
}

static void import_graph(importer *im) {
  const Onnx__GraphProto *gp = im->gp;
  int errs = glow_error_count();
  size_t nnames = gp->n_initializer + gp->n_input + 16;
  for (size_t i = 0; i < gp->n_node; i++)
    nnames += gp->node[i]->n_output;
  size_t cap = 16;
  while (cap < 2 * nnames)
    cap *= 2;
  im->mask = cap - 1;
  im->slots = glow_xmalloc(sizeof(int) * cap);
  for (size_t i = 0; i < cap; i++)
    im->slots[i] = -1;
  im->pn = glow_xcalloc(gp->n_node + 1, sizeof *im->pn);

  add_initializers(im);
  add_inputs(im);
  check_input_options(im);
  define_node_outputs(im);
  for (size_t i = 0; i < gp->n_node; i++)
    resolve_node(im, i);
  add_outputs(im);
  if (glow_error_count() > errs)
    return;
  int *order = topo_order(im);
  if (order)
    add_nodes(im, order);
  free(order);
  if (order)
    dequantize_inputs(im);
}

glow_graph *glow_import_onnx(const char *path, const glow_import_options *o) {
  uint8_t *bytes;
  size_t size;
  if (glow_pb_file_read(path, &bytes, &size))
    return NULL;
  glow_graph *g = glow_import_onnx_bytes(bytes, size, path, o);
  free(bytes);
  return g;
}

/* The graph, and in *batch (malloc'd, or NULL when none) the model's batch for
 * each -model-input that gives another, else -1. */
static glow_graph *import_bytes(const void *data, size_t size, const char *path, const glow_import_options *o,
                                int64_t **batch) {
  int errs = glow_error_count();
  *batch = NULL;
  Onnx__ModelProto *m = parse_model(path, data, size);
  if (!m)
    return NULL;
  importer im = {.path = path, .o = o, .gp = m->graph, .g = glow_graph_create(path)};
  if (!read_opset(&im, m))
    import_graph(&im);
  for (size_t i = 0; im.pn && i < m->graph->n_node; i++) {
    free(im.pn[i].name);
    free(im.pn[i].in);
    free(im.pn[i].out);
  }
  free(im.pn);
  free(im.slots);
  onnx__model_proto__free_unpacked(m, NULL);
  if (glow_error_count() > errs) {
    glow_graph_free(im.g);
    free(im.batch);
    return NULL;
  }
  *batch = im.batch;
  return im.g;
}

/* A batch other than the model's: the graph imported again at the given batch
 * and at the model's, for glow_batch_check to compare. */
static int check_batch(const void *data, size_t size, const char *path, const glow_import_options *o,
                       const int64_t *batch) {
  glow_import_options at_model = *o;
  at_model.input_dims = glow_xmalloc(sizeof *at_model.input_dims * (size_t)o->ninputs);
  memcpy(at_model.input_dims, o->input_dims, sizeof *at_model.input_dims * (size_t)o->ninputs);
  int64_t *given = glow_xmalloc(sizeof *given * (size_t)o->ninputs);
  int64_t *model = glow_xmalloc(sizeof *model * (size_t)o->ninputs);
  int n = 0;
  const char *first = NULL;
  for (int k = 0; k < o->ninputs; k++)
    if (batch[k] >= 0) {
      first = first ? first : o->input_names[k];
      at_model.input_dims[k][0] = batch[k];
      given[n] = o->input_dims[k][0];
      model[n++] = batch[k];
    }
  int64_t *unused = NULL;
  glow_graph *g = import_bytes(data, size, path, o, &unused);
  free(unused);
  glow_graph *a = import_bytes(data, size, path, &at_model, &unused);
  free(unused);
  int rc = g && a ? glow_batch_check(g, a, first, given, model, n) : 0;
  glow_graph_free(g);
  glow_graph_free(a);
  free(at_model.input_dims);
  free(given);
  free(model);
  return rc;
}

glow_graph *glow_import_onnx_bytes(const void *data, size_t size, const char *path, const glow_import_options *o) {
  static const glow_import_options none;
  o = o ? o : &none;
  int64_t *batch;
  glow_graph *g = import_bytes(data, size, path, o, &batch);
  if (g && batch && check_batch(data, size, path, o, batch)) {
    glow_graph_free(g);
    g = NULL;
  }
  free(batch);
  return g;
}
