/* -model-input's forms through the importers' public functions, with the options
 * filled here as the option parser fills them: a bare name (the model's type and
 * shape), a batch other than the model's (the rows computed as the model computes
 * one), a batch the model fixes (the node named), and the quantized forms (the
 * input stays int8/int16/int32, and the float graph reads (q - offset) * scale).
 * Results come from the reference interpreter and are checked against float64
 * references computed here from the model's own weights.
 *   test-model-input <dir of gen-models.py's models> */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caffe2.pb-c.h"
#include "glowc.h"

static int failures;
#define CHECK(c)                                                   \
  do {                                                             \
    if (!(c)) {                                                    \
      printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
      failures++;                                                  \
    }                                                              \
  } while (0)

static const char *dir;
static char path_buf[4096];
static const char *model(const char *name) {
  snprintf(path_buf, sizeof path_buf, "%s/%s", dir, name);
  return path_buf;
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

/* One -model-input, as the parser fills it: rank -1 is a bare name; scale 0
 * leaves the scale and offset arrays NULL (no quantized form given). */
typedef struct {
  const char *names[1];
  glow_dtype types[1];
  int ranks[1];
  int64_t dims[1][GLOW_MAX_RANK];
  float scales[1];
  int32_t offsets[1];
  glow_import_options o;
} one_input;

static const glow_import_options *input(one_input *m, const char *name, glow_dtype dt, int rank, const int64_t *dims,
                                        float scale, int32_t offset) {
  memset(m, 0, sizeof *m);
  m->names[0] = name;
  m->types[0] = rank < 0 ? GLOW_DT_UNDEF : dt;
  m->ranks[0] = rank;
  for (int i = 0; i < rank; i++)
    m->dims[0][i] = dims[i];
  m->scales[0] = scale;
  m->offsets[0] = offset;
  m->o = (glow_import_options){.ninputs = 1, .input_names = m->names, .input_types = m->types,
                               .input_ranks = m->ranks, .input_dims = m->dims};
  if (scale != 0.0f)
    m->o.input_scales = m->scales, m->o.input_offsets = m->offsets;
  return &m->o;
}

/* The import's error text; the import must fail. */
static const char *import_fails(const char *file, const glow_import_options *o) {
  capture_begin();
  glow_graph *g = glow_import_onnx(file, o);
  const char *e = capture_end();
  CHECK(!g);
  glow_graph_free(g);
  return e;
}

/* Runs an imported graph's graph passes, then the interpreter on one input; the first output (malloc'd). */
static float *run(glow_graph *g, const void *x, int64_t *numel) {
  glow_pass_options po;
  memset(&po, 0, sizeof po);
  GLOW_ASSERT(!glow_run_passes(g, &po, GLOW_PASS_GRAPH));
  const glow_value *v = &g->vals[g->inputs[0]];
  glow_tensor in = {v->dt, v->rank, {0}, (void *)x};
  memcpy(in.dims, v->dims, sizeof in.dims);
  glow_tensor out[4];
  GLOW_ASSERT(!glow_interp_run(g, &in, out));
  GLOW_ASSERT(out[0].dt == GLOW_DT_F32);
  int64_t n = 1;
  for (int i = 0; i < out[0].rank; i++)
    n *= out[0].dims[i];
  *numel = n;
  for (int i = 1; i < g->noutputs; i++)
    free(out[i].data);
  return out[0].data;
}

/* flat.onnx's y = relu(flatten(x) W + b) for `rows` rows of x (6 values each), in float64,
 * from the weights of an import of the model. */
static void flat_reference(const double *x, int rows, double *y) {
  glow_graph *g = glow_import_onnx(model("flat.onnx"), NULL);
  GLOW_ASSERT(g);
  const float *w = g->vals[glow_value_find(g, "W")].data, *b = g->vals[glow_value_find(g, "b")].data;
  for (int r = 0; r < rows; r++)
    for (int j = 0; j < 4; j++) {
      double s = b[j];
      for (int k = 0; k < 6; k++)
        s += x[r * 6 + k] * w[k * 4 + j];
      y[r * 4 + j] = s > 0 ? s : 0;
    }
  glow_graph_free(g);
}

static int close_to(const float *got, const double *want, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (fabs(got[i] - want[i]) > 1e-5 * (1 + fabs(want[i]))) {
      printf("  element %lld: %.9g, want %.9g\n", (long long)i, (double)got[i], want[i]);
      return 0;
    }
  return 1;
}

static void test_bare_name(void) {
  one_input m;
  glow_graph *g = glow_import_onnx(model("flat.onnx"), input(&m, "x", 0, -1, NULL, 0, 0));
  CHECK(g);
  if (g) {
    const glow_value *x = &g->vals[g->inputs[0]];
    CHECK(x->dt == GLOW_DT_F32 && x->rank == 3 && x->dims[0] == 1 && x->dims[1] == 2 && x->dims[2] == 3);
    CHECK(x->qscale == 0.0f);
  }
  glow_graph_free(g);
  const char *e = import_fails(model("flat.onnx"), input(&m, "nope", 0, -1, NULL, 0, 0));
  CHECK(strstr(e, "'nope'") && strstr(e, "no such input") && strstr(e, "inputs are: 'x'"));
}

static void test_batch(void) {
  one_input m;
  static const int64_t b4[3] = {4, 2, 3}, b1[3] = {1, 2, 3}, wrong[3] = {1, 2, 4};
  float x[24];
  double xd[24], want[16];
  for (int i = 0; i < 24; i++)
    xd[i] = x[i] = (float)(i % 7) * 0.75f - 2.0f + (float)(i / 6) * 0.5f;
  flat_reference(xd, 4, want);
  glow_graph *g = glow_import_onnx(model("flat.onnx"), input(&m, "x", GLOW_DT_F32, 3, b4, 0, 0));
  CHECK(g && g->vals[g->inputs[0]].dims[0] == 4);
  if (g) {
    int64_t n;
    float *y = run(g, x, &n);
    CHECK(n == 16 && close_to(y, want, 16));
    /* Each row as the model computes it at its own batch. */
    for (int r = 0; r < 4; r++) {
      glow_graph *g1 = glow_import_onnx(model("flat.onnx"), input(&m, "x", GLOW_DT_F32, 3, b1, 0, 0));
      int64_t n1;
      float *y1 = run(g1, x + 6 * r, &n1);
      CHECK(n1 == 4 && !memcmp(y1, y + 4 * r, sizeof(float) * 4));
      free(y1);
      glow_graph_free(g1);
    }
    free(y);
  }
  glow_graph_free(g);
  const char *e = import_fails(model("flat.onnx"), input(&m, "x", GLOW_DT_F32, 3, wrong, 0, 0));
  CHECK(strstr(e, "float[1,2,4]") && strstr(e, "float[1,2,3]") && strstr(e, "only dimension 0"));
}

static void test_fixed_batch(void) {
  one_input m;
  static const int64_t b4[2] = {4, 3}, b1[2] = {1, 3};
  const char *e = import_fails(model("fixed.onnx"), input(&m, "x", GLOW_DT_F32, 2, b4, 0, 0));
  CHECK(strstr(e, "fixed.onnx:flat (Reshape): error: does not take batch 4"));
  CHECK(strstr(e, "fixes batch 1") && strstr(e, "float[1,12] at batch 4"));
  glow_graph *g = glow_import_onnx(model("fixed.onnx"), input(&m, "x", GLOW_DT_F32, 2, b1, 0, 0));
  CHECK(g);
  glow_graph_free(g);
}

/* The graph input stays quantized: dt, scale and offset recorded, read only by a DequantizeLinear. */
static int quantized_input(const glow_graph *g, glow_dtype dt, float scale, int32_t offset) {
  int id = g->inputs[0], readers = 0, dq = 0;
  for (int i = 0; i < g->nnodes; i++)
    for (int k = 0; !g->nodes[i].dead && k < g->nodes[i].nin; k++)
      if (g->nodes[i].in[k] == id)
        readers++, dq += g->nodes[i].op == GLOW_OP_DEQUANTIZE_LINEAR && k == 0;
  const glow_value *v = &g->vals[id];
  return v->dt == dt && v->qscale == scale && v->qoffset == offset && readers == 1 && dq == 1;
}

static void test_quantized(glow_dtype dt, float scale, int32_t offset, int rows) {
  one_input m;
  const int64_t dims[3] = {rows, 2, 3};
  int n = rows * 6;
  int8_t q8[24];
  int16_t q16[24];
  int32_t q32[24];
  double xd[24], want[16];
  for (int i = 0; i < n; i++) {
    int32_t q = dt == GLOW_DT_I8 ? (i * 37) % 256 - 128 : dt == GLOW_DT_I16 ? i * 2731 - 32768 : i * 99991 - 1000000;
    q8[i] = (int8_t)q, q16[i] = (int16_t)q, q32[i] = q;
    xd[i] = ((double)q - offset) * scale;
  }
  flat_reference(xd, rows, want);
  glow_graph *g = glow_import_onnx(model("flat.onnx"), input(&m, "x", dt, 3, dims, scale, offset));
  CHECK(g && quantized_input(g, dt, scale, offset));
  if (g) {
    int64_t numel;
    float *y = run(g, dt == GLOW_DT_I8 ? (void *)q8 : dt == GLOW_DT_I16 ? (void *)q16 : (void *)q32, &numel);
    CHECK(numel == 4 * rows && close_to(y, want, numel));
    CHECK(quantized_input(g, dt, scale, offset)); /* the passes keep it so */
    free(y);
  }
  glow_graph_free(g);
}

static void test_quantized_errors(void) {
  one_input m;
  static const int64_t dims[3] = {1, 2, 3}, two[1] = {2};
  const char *e = import_fails(model("flat.onnx"), input(&m, "x", GLOW_DT_I8, 3, dims, 0.5f, 128));
  CHECK(strstr(e, "offset 128 is outside int8's range [-128, 127]"));
  e = import_fails(model("flat.onnx"), input(&m, "x", GLOW_DT_I16, 3, dims, 0.5f, -40000));
  CHECK(strstr(e, "offset -40000 is outside int16's range"));
  e = import_fails(model("flat.onnx"), input(&m, "x", GLOW_DT_I8, 3, dims, -0.5f, 0));
  CHECK(strstr(e, "scale is -0.5; it must be a positive number"));
  e = import_fails(model("index.onnx"), input(&m, "i", GLOW_DT_I8, 1, two, 0.5f, 0));
  CHECK(strstr(e, "input 'i'") && strstr(e, "the model's input is int64") && strstr(e, "carry a float input"));
}

/* A Caffe2 net data -> Relu -> out, which records no input types or shapes. */
static glow_graph *caffe2_import(const glow_import_options *o) {
  char *in[1] = {"data"}, *out[1] = {"out"};
  Caffe2__OperatorDef op = CAFFE2__OPERATOR_DEF__INIT;
  op.n_input = op.n_output = 1;
  op.input = in, op.output = out, op.type = "Relu", op.name = "relu";
  Caffe2__OperatorDef *ops[1] = {&op};
  Caffe2__NetDef predict = CAFFE2__NET_DEF__INIT, init = CAFFE2__NET_DEF__INIT;
  predict.name = "net", init.name = "init";
  predict.n_op = 1, predict.op = ops;
  predict.n_external_input = predict.n_external_output = 1;
  predict.external_input = in, predict.external_output = out;
  uint8_t pb[256], ib[64];
  size_t np = caffe2__net_def__pack(&predict, pb), ni = caffe2__net_def__pack(&init, ib);
  return glow_import_caffe2_bytes(pb, np, ib, ni, "predict_net.pb", "init_net.pb", o);
}

static void test_caffe2(void) {
  one_input m;
  static const int64_t dims[2] = {2, 3};
  capture_begin();
  glow_graph *g = caffe2_import(input(&m, "data", 0, -1, NULL, 0, 0));
  const char *e = capture_end();
  CHECK(!g && strstr(e, "predict_net.pb: error: input 'data' has no type or shape") &&
        strstr(e, "-model-input=data,float,["));
  glow_graph_free(g);
  g = caffe2_import(input(&m, "data", GLOW_DT_I8, 2, dims, 0.125f, 10));
  CHECK(g && quantized_input(g, GLOW_DT_I8, 0.125f, 10));
  if (g) {
    static const int8_t q[6] = {-128, 0, 9, 10, 11, 127};
    int64_t n;
    float *y = run(g, q, &n);
    int ok = n == 6;
    for (int i = 0; ok && i < 6; i++) {
      double x = (q[i] - 10) * 0.125;
      ok = y[i] == (float)(x > 0 ? x : 0);
    }
    CHECK(ok);
    free(y);
  }
  glow_graph_free(g);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test-model-input <dir of gen-models.py's models>\n");
    return 2;
  }
  dir = argv[1];
  test_bare_name();
  test_batch();
  test_fixed_batch();
  test_quantized(GLOW_DT_I8, 0.25f, -3, 1);
  test_quantized(GLOW_DT_I8, 0.046875f, 5, 2); /* a quantized form with another batch */
  test_quantized(GLOW_DT_I16, 1.0f / 1024, 100, 1);
  test_quantized(GLOW_DT_I32, 1.0f / 65536, -5, 1);
  test_quantized_errors();
  test_caffe2();
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures != 0;
}
