/* ONNX importer: models are built here with the generated protobuf-c code,
 * written to the working directory, imported, and the graph or the
 * diagnostics checked. Needs no Python and no files from outside. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glowc.h"
#include "onnx.pb-c.h"

static int failures;
#define CHECK(c)                                                         \
  do {                                                                   \
    if (!(c)) {                                                          \
      printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);       \
      failures++;                                                        \
    }                                                                    \
  } while (0)

/* Everything a test model allocates, freed after each test. */
static void *pool[1024];
static int npool;
static void *keep(void *p) {
  GLOW_ASSERT(npool < 1024);
  return pool[npool++] = p;
}
static void *zalloc(size_t n) { return keep(glow_xcalloc(1, n)); }
static void pool_free(void) {
  while (npool)
    free(pool[--npool]);
}

/* stderr of the code under test, kept to check the diagnostics. */
static char errtext[16384];
static int saved_fd = -1;
static FILE *errfile;
static void capture_begin(void) {
  fflush(stderr);
  errfile = tmpfile();
  saved_fd = dup(2);
  dup2(fileno(errfile), 2);
}
static const char *capture_end(void) {
  fflush(stderr);
  dup2(saved_fd, 2);
  close(saved_fd);
  rewind(errfile);
  size_t n = fread(errtext, 1, sizeof errtext - 1, errfile);
  errtext[n] = 0;
  fclose(errfile);
  printf("%s", errtext);
  return errtext;
}

static Onnx__TensorProto *tensor(const char *name, int dt, int rank, const int64_t *dims) {
  Onnx__TensorProto *t = zalloc(sizeof *t);
  onnx__tensor_proto__init(t);
  t->name = (char *)name;
  t->has_data_type = 1;
  t->data_type = dt;
  t->n_dims = (size_t)rank;
  t->dims = keep(glow_xmalloc(sizeof(int64_t) * (size_t)(rank + 1)));
  memcpy(t->dims, dims, sizeof(int64_t) * (size_t)rank);
  return t;
}

static void raw(Onnx__TensorProto *t, const void *data, size_t n) {
  t->has_raw_data = 1;
  t->raw_data.len = n;
  t->raw_data.data = (uint8_t *)data;
}

/* dims: NULL for no shape; each entry a number, a symbol, or "" for unknown. */
static Onnx__ValueInfoProto *vinfo(const char *name, int dt, int rank, const char *const *dims) {
  Onnx__ValueInfoProto *v = zalloc(sizeof *v);
  onnx__value_info_proto__init(v);
  v->name = (char *)name;
  v->type = zalloc(sizeof *v->type);
  onnx__type_proto__init(v->type);
  Onnx__TypeProto__Tensor *tt = zalloc(sizeof *tt);
  onnx__type_proto__tensor__init(tt);
  v->type->tensor_type = tt;
  tt->has_elem_type = dt != 0;
  tt->elem_type = dt;
  if (!dims)
    return v;
  tt->shape = zalloc(sizeof *tt->shape);
  onnx__tensor_shape_proto__init(tt->shape);
  tt->shape->n_dim = (size_t)rank;
  tt->shape->dim = zalloc(sizeof(void *) * (size_t)(rank + 1));
  for (int i = 0; i < rank; i++) {
    Onnx__TensorShapeProto__Dimension *d = zalloc(sizeof *d);
    onnx__tensor_shape_proto__dimension__init(d);
    if (dims[i][0] >= '0' && dims[i][0] <= '9') {
      d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
      d->dim_value = atoll(dims[i]);
    } else if (dims[i][0]) {
      d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
      d->dim_param = (char *)dims[i];
    }
    tt->shape->dim[i] = d;
  }
  return v;
}

/* ins, outs: up to 4 names each, NULL-terminated; "" for an omitted one. */
static Onnx__NodeProto *node(const char *op, const char *name, const char *const *ins, const char *const *outs) {
  Onnx__NodeProto *n = zalloc(sizeof *n);
  onnx__node_proto__init(n);
  n->op_type = (char *)op;
  n->name = (char *)name;
  n->input = zalloc(sizeof(char *) * 5);
  n->output = zalloc(sizeof(char *) * 5);
  while (ins && ins[n->n_input])
    n->input[n->n_input] = (char *)ins[n->n_input], n->n_input++;
  while (outs && outs[n->n_output])
    n->output[n->n_output] = (char *)outs[n->n_output], n->n_output++;
  n->attribute = zalloc(sizeof(void *) * 8);
  return n;
}

static Onnx__AttributeProto *attr(Onnx__NodeProto *n, const char *name, int type) {
  Onnx__AttributeProto *a = zalloc(sizeof *a);
  onnx__attribute_proto__init(a);
  a->name = (char *)name;
  a->has_type = 1;
  a->type = type;
  a->has_f = type == GLOW_ATTR_FLOAT;
  a->has_i = type == GLOW_ATTR_INT;
  n->attribute[n->n_attribute++] = a;
  return a;
}

typedef struct {
  Onnx__ModelProto m;
  Onnx__GraphProto g;
  Onnx__OperatorSetIdProto os, *osp[1];
  Onnx__NodeProto *nodes[16];
  Onnx__TensorProto *inits[16];
  Onnx__ValueInfoProto *ins[8], *outs[8];
} model;

static void model_init(model *md, int64_t opset) {
  memset(md, 0, sizeof *md);
  onnx__model_proto__init(&md->m);
  onnx__graph_proto__init(&md->g);
  onnx__operator_set_id_proto__init(&md->os);
  md->os.domain = "";
  md->os.has_version = 1;
  md->os.version = opset;
  md->osp[0] = &md->os;
  md->m.has_ir_version = 1;
  md->m.ir_version = 8;
  md->m.n_opset_import = 1;
  md->m.opset_import = md->osp;
  md->m.graph = &md->g;
  md->g.name = "test";
  md->g.node = md->nodes;
  md->g.initializer = md->inits;
  md->g.input = md->ins;
  md->g.output = md->outs;
}

static void write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  GLOW_ASSERT(f);
  GLOW_ASSERT(fwrite(data, 1, n, f) == n);
  fclose(f);
}

/* Writes the model, cut to `keep_bytes` when that is smaller than its size. */
static void model_write(model *md, const char *path, size_t keep_bytes) {
  size_t n = onnx__model_proto__get_packed_size(&md->m);
  uint8_t *buf = glow_xmalloc(n);
  onnx__model_proto__pack(&md->m, buf);
  write_bytes(path, buf, keep_bytes < n ? keep_bytes : n);
  free(buf);
}

#define L(...) ((const char *const[]){__VA_ARGS__, NULL})

static const float w_data[6] = {1, 2, 3, 4, 5, 6};
static const float b_data[2] = {0.5f, -0.5f};
static const int64_t d32[2] = {3, 2}, d2[1] = {2}, d1[1] = {1};

/* x[2,3] -> Gemm(x, W, b) -> Relu -> Reshape(shape) -> y, plus initializers
 * of several dtypes and typed fields; node order as given by `order`. */
static void build_small(model *md, const int *order) {
  model_init(md, 13);
  Onnx__TensorProto *w = tensor("W", GLOW_DT_F32, 2, d32);
  raw(w, w_data, sizeof w_data);
  Onnx__TensorProto *b = tensor("b", GLOW_DT_F32, 1, d2);
  b->n_float_data = 2;
  b->float_data = (float *)b_data;
  static int32_t i8[2] = {-1, 5}, h[2] = {0x3c00, 0xc000}, bo[2] = {0, 7};
  Onnx__TensorProto *t8 = tensor("i8", GLOW_DT_I8, 1, d2);
  t8->n_int32_data = 2, t8->int32_data = i8;
  Onnx__TensorProto *th = tensor("h", GLOW_DT_F16, 1, d2);
  th->n_int32_data = 2, th->int32_data = h;
  Onnx__TensorProto *tb = tensor("bo", GLOW_DT_BOOL, 1, d2);
  tb->n_int32_data = 2, tb->int32_data = bo;
  static uint64_t u[1] = {0xfffffffffull};
  Onnx__TensorProto *tu = tensor("u32", GLOW_DT_U32, 1, d1);
  tu->n_uint64_data = 1, tu->uint64_data = u;
  static double dd[1] = {2.25};
  Onnx__TensorProto *td = tensor("d", GLOW_DT_F64, 0, d1);
  td->n_double_data = 1, td->double_data = dd;
  Onnx__TensorProto *inits[] = {w, b, t8, th, tb, tu, td};
  for (size_t i = 0; i < sizeof inits / sizeof *inits; i++)
    md->inits[md->g.n_initializer++] = inits[i];

  md->ins[md->g.n_input++] = vinfo("x", GLOW_DT_F32, 2, L("2", "3"));
  md->ins[md->g.n_input++] = vinfo("W", GLOW_DT_F32, 2, L("3", "2")); /* an initializer: stays constant */
  md->outs[md->g.n_output++] = vinfo("y", GLOW_DT_F32, 0, NULL);

  Onnx__NodeProto *nodes[4];
  nodes[0] = node("Constant", "shape_const", NULL, L("shape"));
  Onnx__AttributeProto *a = attr(nodes[0], "value_ints", GLOW_ATTR_INTS);
  static int64_t shape[2] = {4, 1};
  a->n_ints = 2, a->ints = shape;
  nodes[1] = node("Gemm", "gemm", L("x", "W", "b"), L("g"));
  attr(nodes[1], "alpha", GLOW_ATTR_FLOAT)->f = 2.0f;
  attr(nodes[1], "transB", GLOW_ATTR_INT)->i = 0;
  nodes[2] = node("Relu", NULL, L("g"), L("r"));
  Onnx__AttributeProto *s = attr(nodes[2], "tag", GLOW_ATTR_STRING);
  s->has_s = 1, s->s.data = (uint8_t *)"hi", s->s.len = 2;
  Onnx__AttributeProto *ts = attr(nodes[2], "extra", GLOW_ATTR_TENSOR);
  ts->t = tensor("", GLOW_DT_I64, 1, d1);
  static int64_t seven[1] = {7};
  ts->t->n_int64_data = 1, ts->t->int64_data = seven;
  nodes[3] = node("Reshape", "reshape", L("r", "shape"), L("y"));
  for (int i = 0; i < 4; i++)
    md->nodes[md->g.n_node++] = nodes[order[i]];
}

static const glow_value *val(const glow_graph *g, const char *name) {
  int id = glow_value_find(g, name);
  return id >= 0 ? &g->vals[id] : NULL;
}

static void test_small(const int *order, const char *relu_name) {
  model md;
  build_small(&md, order);
  model_write(&md, "imp-small.onnx", SIZE_MAX);
  pool_free();
  glow_graph *g = glow_import_onnx("imp-small.onnx", NULL);
  CHECK(g);
  if (!g)
    return;
  CHECK(g->opset == 13);
  CHECK(g->ninputs == 1 && !strcmp(g->vals[g->inputs[0]].name, "x"));
  const glow_value *x = val(g, "x");
  CHECK(x->kind == GLOW_VAL_INPUT && x->dt == GLOW_DT_F32 && x->rank == 2 && x->dims[0] == 2 && x->dims[1] == 3);
  const glow_value *w = val(g, "W");
  CHECK(w->kind == GLOW_VAL_CONST && w->rank == 2 && w->dims[0] == 3 && !memcmp(w->data, w_data, sizeof w_data));
  const glow_value *b = val(g, "b");
  CHECK(b->kind == GLOW_VAL_CONST && !memcmp(b->data, b_data, sizeof b_data));
  const glow_value *t8 = val(g, "i8");
  CHECK(t8->dt == GLOW_DT_I8 && ((int8_t *)t8->data)[0] == -1 && ((int8_t *)t8->data)[1] == 5);
  const glow_value *th = val(g, "h");
  CHECK(th->dt == GLOW_DT_F16 && ((uint16_t *)th->data)[0] == 0x3c00 && ((uint16_t *)th->data)[1] == 0xc000);
  const glow_value *tb = val(g, "bo");
  CHECK(tb->dt == GLOW_DT_BOOL && ((uint8_t *)tb->data)[0] == 0 && ((uint8_t *)tb->data)[1] == 1);
  const glow_value *tu = val(g, "u32");
  CHECK(tu->dt == GLOW_DT_U32 && ((uint32_t *)tu->data)[0] == 0xffffffffu);
  const glow_value *td = val(g, "d");
  CHECK(td->dt == GLOW_DT_F64 && td->rank == 0 && *(double *)td->data == 2.25);
  const glow_value *sh = val(g, "shape");
  CHECK(sh->kind == GLOW_VAL_CONST && sh->dt == GLOW_DT_I64 && sh->rank == 1 && ((int64_t *)sh->data)[1] == 1);

  CHECK(g->nnodes == 3);
  if (g->nnodes == 3) {
    CHECK(g->nodes[0].op == GLOW_OP_GEMM && !strcmp(g->nodes[0].name, "gemm"));
    CHECK(glow_attr_float(&g->nodes[0], "alpha", 0) == 2.0 && glow_attr_int(&g->nodes[0], "transB", 9) == 0);
    CHECK(g->nodes[1].op == GLOW_OP_RELU && !strcmp(g->nodes[1].name, relu_name));
    CHECK(!strcmp(glow_attr_string(&g->nodes[1], "tag", ""), "hi"));
    const glow_attr *ex = glow_attr_find(&g->nodes[1], "extra");
    CHECK(ex && ex->type == GLOW_ATTR_TENSOR && ex->t_value >= 0 &&
          *(int64_t *)g->vals[ex->t_value].data == 7 && g->vals[ex->t_value].kind == GLOW_VAL_CONST);
    CHECK(g->nodes[2].op == GLOW_OP_RESHAPE && g->nodes[2].in[1] == glow_value_find(g, "shape"));
    CHECK(g->vals[g->nodes[0].out[0]].producer == 0 && g->vals[g->nodes[2].out[0]].producer == 2);
  }
  CHECK(g->noutputs == 1 && g->vals[g->outputs[0]].is_output && !strcmp(g->vals[g->outputs[0]].name, "y"));
  glow_graph_free(g);
}

/* Imports path expecting failure; returns the diagnostics. */
static const char *import_fails(const char *path, const glow_import_options *o) {
  int before = glow_error_count();
  capture_begin();
  glow_graph *g = glow_import_onnx(path, o);
  const char *text = capture_end();
  CHECK(!g);
  CHECK(glow_error_count() > before);
  glow_graph_free(g);
  return text;
}

static void test_bad_files(void) {
  static const int order[4] = {0, 1, 2, 3};
  model md;
  build_small(&md, order);
  model_write(&md, "imp-trunc.onnx", 40);
  pool_free();
  CHECK(strstr(import_fails("imp-trunc.onnx", NULL), "imp-trunc.onnx: error: not a valid ONNX model ("));
  CHECK(strstr(import_fails("imp-does-not-exist.onnx", NULL), "imp-does-not-exist.onnx: error: cannot open"));
  write_bytes("imp-empty.onnx", "", 0);
  CHECK(strstr(import_fails("imp-empty.onnx", NULL), "file is empty"));
  write_bytes("imp-text.onnx", "hello, world\n", 13);
  CHECK(strstr(import_fails("imp-text.onnx", NULL), "not a valid ONNX model"));
  model_init(&md, 13);
  md.m.graph = NULL;
  model_write(&md, "imp-nograph.onnx", SIZE_MAX);
  CHECK(strstr(import_fails("imp-nograph.onnx", NULL), "no graph"));
  model_init(&md, 21);
  model_write(&md, "imp-opset.onnx", SIZE_MAX);
  CHECK(strstr(import_fails("imp-opset.onnx", NULL), "opset 21 is not supported"));
}

static void test_unsupported(void) {
  model md;
  model_init(&md, 13);
  md.ins[md.g.n_input++] = vinfo("x", GLOW_DT_F32, 1, L("4"));
  md.nodes[md.g.n_node++] = node("NoSuchOp", "first", L("x"), L("a"));
  md.nodes[md.g.n_node++] = node("Relu", "fine", L("a"), L("b"));
  Onnx__NodeProto *n = node("Custom", NULL, L("b"), L("c"));
  n->domain = "com.example";
  md.nodes[md.g.n_node++] = n;
  md.outs[md.g.n_output++] = vinfo("c", 0, 0, NULL);
  model_write(&md, "imp-unsup.onnx", SIZE_MAX);
  pool_free();
  int before = glow_error_count();
  const char *e = import_fails("imp-unsup.onnx", NULL);
  CHECK(glow_error_count() - before >= 2);
  CHECK(strstr(e, "imp-unsup.onnx:first: error: unsupported op 'NoSuchOp' (domain ai.onnx)"));
  CHECK(strstr(e, "imp-unsup.onnx:Custom_c: error: unsupported op 'Custom' (domain com.example)"));
}

static void test_model_input(void) {
  static const int order[4] = {0, 1, 2, 3};
  model md;
  build_small(&md, order);
  model_write(&md, "imp-mi.onnx", SIZE_MAX);
  pool_free();
  const char *names[1] = {"x"};
  glow_dtype types[1] = {GLOW_DT_F32};
  int ranks[1] = {2};
  int64_t dims[1][GLOW_MAX_RANK] = {{2, 4}}; /* the batch (dimension 0) may differ: tests/model-input */
  glow_import_options o = {.ninputs = 1, .input_names = names, .input_types = types, .input_ranks = ranks,
                           .input_dims = dims};
  const char *e = import_fails("imp-mi.onnx", &o);
  CHECK(strstr(e, "float[2,4]") && strstr(e, "float[2,3]"));
  dims[0][1] = 3;
  dims[0][0] = 2;
  glow_graph *g = glow_import_onnx("imp-mi.onnx", &o);
  CHECK(g && g->vals[g->inputs[0]].dims[0] == 2);
  glow_graph_free(g);
  names[0] = "nope";
  e = import_fails("imp-mi.onnx", &o);
  CHECK(strstr(e, "'nope'") && strstr(e, "inputs are: 'x'"));
  names[0] = "W";
  CHECK(strstr(import_fails("imp-mi.onnx", &o), "initializer"));
}

static void test_symbols(void) {
  model md;
  model_init(&md, 13);
  md.ins[md.g.n_input++] = vinfo("x", GLOW_DT_F32, 2, L("N", "3"));
  md.nodes[md.g.n_node++] = node("Relu", "r", L("x"), L("y"));
  md.outs[md.g.n_output++] = vinfo("y", GLOW_DT_F32, 0, NULL);
  model_write(&md, "imp-sym.onnx", SIZE_MAX);
  md.ins[0] = vinfo("x", GLOW_DT_F32, 2, L("", "3"));
  model_write(&md, "imp-nodim.onnx", SIZE_MAX);
  pool_free();
  const char *e = import_fails("imp-sym.onnx", NULL);
  CHECK(strstr(e, "'x'") && strstr(e, "'N'") && strstr(e, "-onnx-define-symbol=N,VALUE") &&
        strstr(e, "-model-input"));
  const char *syms[1] = {"N"};
  int64_t vals[1] = {5};
  glow_import_options o = {.nsymbols = 1, .symbol_names = syms, .symbol_values = vals};
  glow_graph *g = glow_import_onnx("imp-sym.onnx", &o);
  CHECK(g && g->vals[g->inputs[0]].rank == 2 && g->vals[g->inputs[0]].dims[0] == 5);
  glow_graph_free(g);
  e = import_fails("imp-nodim.onnx", &o);
  CHECK(strstr(e, "dimension 0 has no size") && strstr(e, "-model-input=x,float,[DIMS]"));
}

static void test_graph_errors(void) {
  model md;
  /* a cycle */
  model_init(&md, 13);
  md.ins[md.g.n_input++] = vinfo("x", GLOW_DT_F32, 1, L("4"));
  md.nodes[md.g.n_node++] = node("Add", "a1", L("x", "b"), L("a"));
  md.nodes[md.g.n_node++] = node("Relu", "r1", L("a"), L("b"));
  md.outs[md.g.n_output++] = vinfo("b", 0, 0, NULL);
  model_write(&md, "imp-cycle.onnx", SIZE_MAX);
  /* an undefined value */
  md.nodes[1]->input[0] = "missing";
  md.nodes[0]->input[1] = "x";
  model_write(&md, "imp-undef.onnx", SIZE_MAX);
  /* a sequence-typed input */
  md.nodes[1]->input[0] = "a";
  md.ins[md.g.n_input++] = vinfo("s", 0, 0, NULL);
  md.ins[1]->type->tensor_type = NULL;
  md.ins[1]->type->has_sequence_type = 1;
  md.ins[1]->type->sequence_type.data = (uint8_t *)"\x0a\x00";
  md.ins[1]->type->sequence_type.len = 2;
  model_write(&md, "imp-seq.onnx", SIZE_MAX);
  /* a subgraph attribute and a wrong input count */
  md.g.n_input = 1;
  Onnx__AttributeProto *a = attr(md.nodes[1], "body", GLOW_ATTR_GRAPH);
  a->has_g = 1, a->g.data = (uint8_t *)"", a->g.len = 0;
  model_write(&md, "imp-subgraph.onnx", SIZE_MAX);
  md.nodes[1]->n_attribute = 0;
  md.nodes[1]->input[1] = "x", md.nodes[1]->n_input = 2;
  model_write(&md, "imp-count.onnx", SIZE_MAX);
  pool_free();
  CHECK(strstr(import_fails("imp-cycle.onnx", NULL), "cycle"));
  CHECK(strstr(import_fails("imp-undef.onnx", NULL), "imp-undef.onnx:r1 (Relu): error: input 'missing'"));
  CHECK(strstr(import_fails("imp-seq.onnx", NULL), "sequence and optional types are not supported"));
  CHECK(strstr(import_fails("imp-subgraph.onnx", NULL), "r1 (Relu): error: attribute 'body' holds a subgraph"));
  CHECK(strstr(import_fails("imp-count.onnx", NULL), "r1 (Relu): error: Relu takes 1 input and 1 output; this node has 2 and 1"));
}

static void test_tensor_pb(void) {
  Onnx__TensorProto *t = tensor("input_0", GLOW_DT_F32, 2, d32);
  raw(t, w_data, sizeof w_data);
  size_t n = onnx__tensor_proto__get_packed_size(t);
  uint8_t *buf = glow_xmalloc(n);
  onnx__tensor_proto__pack(t, buf);
  write_bytes("imp-t.pb", buf, n);
  write_bytes("imp-t-short.pb", buf, n - 3);
  free(buf);
  Onnx__StringStringEntryProto kv = ONNX__STRING_STRING_ENTRY_PROTO__INIT, *kvp = &kv;
  kv.key = "location", kv.value = "w.bin";
  t->has_raw_data = 0, t->n_external_data = 1, t->external_data = &kvp;
  t->has_data_location = 1, t->data_location = 1;
  n = onnx__tensor_proto__get_packed_size(t);
  buf = glow_xmalloc(n);
  onnx__tensor_proto__pack(t, buf);
  write_bytes("imp-t-ext.pb", buf, n);
  free(buf);
  pool_free();

  glow_dtype dt;
  int rank;
  int64_t dims[GLOW_MAX_RANK];
  void *data = NULL;
  char *name = NULL;
  CHECK(!glow_tensor_pb_load("imp-t.pb", &dt, &rank, dims, &data, &name));
  CHECK(dt == GLOW_DT_F32 && rank == 2 && dims[0] == 3 && dims[1] == 2 && data && !memcmp(data, w_data, 24));
  CHECK(name && !strcmp(name, "input_0"));
  free(data);
  free(name);
  capture_begin();
  CHECK(glow_tensor_pb_load("imp-t-short.pb", &dt, &rank, dims, &data, NULL) < 0);
  CHECK(glow_tensor_pb_load("imp-t-ext.pb", &dt, &rank, dims, &data, NULL) < 0);
  const char *e = capture_end();
  CHECK(strstr(e, "imp-t-short.pb: error: not a valid TensorProto (truncated"));
  CHECK(strstr(e, "external file"));
}

int main(void) {
  static const int in_order[4] = {0, 1, 2, 3}, shuffled[4] = {3, 2, 0, 1};
  test_small(in_order, "Relu_r"); /* unnamed: <op type>_<first output>, as Glow names it */
  test_small(shuffled, "Relu_r");
  test_bad_files();
  test_unsupported();
  test_model_input();
  test_symbols();
  test_graph_errors();
  test_tensor_pb();
  const char *files[] = {"imp-small.onnx", "imp-trunc.onnx", "imp-empty.onnx", "imp-text.onnx", "imp-nograph.onnx",
                         "imp-opset.onnx", "imp-unsup.onnx", "imp-mi.onnx", "imp-sym.onnx", "imp-nodim.onnx",
                         "imp-cycle.onnx", "imp-undef.onnx", "imp-seq.onnx", "imp-subgraph.onnx", "imp-count.onnx",
                         "imp-t.pb", "imp-t-short.pb", "imp-t-ext.pb"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    remove(files[i]);
  printf(failures ? "test-importer: %d failures\n" : "test-importer: ok\n", failures);
  return failures != 0;
}
