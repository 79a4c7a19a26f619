/* TFLite importer: a .tflite FlatBuffer (schema version 3, tflite.fbs) to graph
 * IR. The first subgraph is the model: its tensors with a buffer become
 * constants, its inputs the graph inputs and its operators, in order (TFLite
 * runs them in the order listed), nodes of ONNX semantics with their shapes
 * inferred as they are added. Every operator is checked before anything is
 * built, and the unsupported ones are reported together. Nothing is read
 * before flatbuf.c has checked that it lies inside the file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "importer/tflite.h"

/* TFLite ops read the ONNX ops they become with these semantics: Squeeze and
 * ReduceSum take axes as an input, Split its sizes. */
#define TFLITE_ONNX_OPSET 13

/* Field indices of tflite.fbs. */
enum { MODEL_VERSION = 0, MODEL_OPCODES = 1, MODEL_SUBGRAPHS = 2, MODEL_BUFFERS = 4 };
enum { SG_TENSORS = 0, SG_INPUTS = 1, SG_OUTPUTS = 2, SG_OPERATORS = 3 };
enum { T_SHAPE = 0, T_TYPE = 1, T_BUFFER = 2, T_NAME = 3, T_QUANT = 4, T_SPARSITY = 6 };
enum { Q_SCALE = 2, Q_ZERO = 3, Q_DETAILS_TYPE = 4, Q_DIM = 6 };
enum { B_DATA = 0, B_OFFSET = 1, B_SIZE = 2 };
enum { OC_DEPRECATED_CODE = 0, OC_CUSTOM = 1, OC_VERSION = 2, OC_CODE = 3 };
enum { OP_OPCODE = 0, OP_INPUTS = 1, OP_OUTPUTS = 2, OP_OPTS_TYPE = 3, OP_OPTS = 4, OP_CUSTOM_OPTS = 5 };

#define CODE_CUSTOM 32
#define MAX_OP_TENSORS 1024

int glow_tfl_err(const glow_tfl *c, const glow_tfl_op *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  glow_strbuf where = {0}, msg = {0};
  const char *out = op->nout > 0 && op->out[0] >= 0 && op->out[0] < c->ntensors && c->t ? c->t[op->out[0]].name : NULL;
  glow_sb_printf(&where, "%s: operator %d (%s%s%s%s)", c->path, op->index, op->type, out ? ", output '" : "",
                 out ? out : "", out ? "'" : "");
  glow_sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  glow_error(where.s, "%s", msg.s);
  glow_sb_free(&where);
  glow_sb_free(&msg);
  return -1;
}

/* A file-level error: the reader's reason when its check failed. */
static int bad(glow_tfl *c, const char *what) {
  if (glow_fb_failed(&c->fb))
    glow_error(c->path, "not a valid .tflite file: %s (%s); the file is truncated or corrupt", what, c->fb.err);
  else
    glow_error(c->path, "%s", what);
  return -1;
}

static glow_dtype dtype_of(int type) {
  switch (type) {
  case GLOW_TFL_FLOAT32: return GLOW_DT_F32;
  case GLOW_TFL_FLOAT16: return GLOW_DT_F16;
  case GLOW_TFL_INT32: return GLOW_DT_I32;
  case GLOW_TFL_UINT8: return GLOW_DT_U8;
  case GLOW_TFL_INT64: return GLOW_DT_I64;
  case GLOW_TFL_BOOL: return GLOW_DT_BOOL;
  case GLOW_TFL_INT16: return GLOW_DT_I16;
  case GLOW_TFL_INT8: return GLOW_DT_I8;
  default: return GLOW_DT_UNDEF;
  }
}

static const char *type_name(int type) {
  static const char *const n[] = {"FLOAT32", "FLOAT16",   "INT32",      "UINT8",  "INT64",  "STRING",
                                  "BOOL",    "INT16",     "COMPLEX64",  "INT8",   "FLOAT64", "COMPLEX128",
                                  "UINT64",  "RESOURCE",  "VARIANT",    "UINT32", "UINT16", "INT4"};
  return type >= 0 && type < (int)(sizeof n / sizeof n[0]) ? n[type] : "an unknown type";
}

typedef struct {
  const uint8_t *data;
  size_t size;
} buffer;

static int read_buffers(glow_tfl *c, const glow_fb_table *model, buffer **out, uint32_t *n) {
  glow_fb_vec v;
  *out = NULL;
  *n = 0;
  if (glow_fb_vec_field(model, MODEL_BUFFERS, 4, &v) < 0)
    return bad(c, "reading the model's buffers");
  buffer *b = glow_xcalloc(v.n ? v.n : 1, sizeof *b);
  for (uint32_t i = 0; i < v.n; i++) {
    glow_fb_table t;
    glow_fb_vec d;
    if (glow_fb_vec_table(&v, i, &t) || glow_fb_vec_field(&t, B_DATA, 1, &d) < 0) {
      free(b);
      glow_strbuf w = {0};
      glow_sb_printf(&w, "reading buffer %u", i);
      int rc = bad(c, w.s);
      glow_sb_free(&w);
      return rc;
    }
    uint64_t off = glow_fb_uint(&t, B_OFFSET, 8, 0), size = glow_fb_uint(&t, B_SIZE, 8, 0);
    if (d.n) {
      b[i].data = glow_fb_vec_bytes(&d);
      b[i].size = d.n;
    } else if (off > 1) { /* 3c: bytes after the FlatBuffer (offset 1 marks "none") */
      if (off > c->fb.size || size > c->fb.size - off) {
        glow_error(c->path, "not a valid .tflite file: buffer %u says its %llu bytes are at byte %llu, past the "
                   "end of the file (%zu bytes); the file is truncated or corrupt", i, (unsigned long long)size,
                   (unsigned long long)off, c->fb.size);
        free(b);
        return -1;
      }
      b[i].data = c->fb.buf + off;
      b[i].size = (size_t)size;
    }
  }
  *out = b;
  *n = v.n;
  return 0;
}

static int tensor_err(glow_tfl *c, uint32_t i, const char *name, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  glow_strbuf w = {0}, msg = {0};
  glow_sb_printf(&w, "%s: tensor %u '%s'", c->path, i, name);
  glow_sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  if (glow_fb_failed(&c->fb))
    glow_error(w.s, "not a valid .tflite file: %s (%s); the file is truncated or corrupt", msg.s, c->fb.err);
  else
    glow_error(w.s, "%s", msg.s);
  glow_sb_free(&w);
  glow_sb_free(&msg);
  return -1;
}

/* A zero point is a value of its tensor's integer type; on other types, of int32 (TFLite's kernels). */
static int zero_fits(glow_dtype dt, int64_t z) {
  switch (dt) {
  case GLOW_DT_I8: return z >= INT8_MIN && z <= INT8_MAX;
  case GLOW_DT_U8: return z >= 0 && z <= UINT8_MAX;
  case GLOW_DT_I16: return z >= INT16_MIN && z <= INT16_MAX;
  default: return z >= INT32_MIN && z <= INT32_MAX;
  }
}

static int read_quant(glow_tfl *c, uint32_t i, glow_tfl_tensor *t, const glow_fb_table *tt) {
  glow_fb_table q;
  glow_fb_vec s, z;
  int has = glow_fb_table_field(tt, T_QUANT, &q);
  if (has <= 0)
    return has < 0 ? tensor_err(c, i, t->name, "reading its quantization") : 0;
  if (glow_fb_vec_field(&q, Q_SCALE, 4, &s) < 0 || glow_fb_vec_field(&q, Q_ZERO, 8, &z) < 0)
    return tensor_err(c, i, t->name, "reading its quantization");
  if (glow_fb_uint(&q, Q_DETAILS_TYPE, 1, 0))
    return tensor_err(c, i, t->name, "has custom quantization details, which glowc does not read; only scale and "
                      "zero point quantization is supported");
  if (!s.n)
    return 0; /* min/max only: a float tensor's recorded range */
  int64_t qdim = glow_fb_int(&q, Q_DIM, 4, 0);
  if (z.n && z.n != s.n)
    return tensor_err(c, i, t->name, "has %u scales and %u zero points; they come in pairs", s.n, z.n);
  if (s.n > 1 && t->rank == 1 && (int64_t)s.n == t->dims[0])
    qdim = 0; /* a bias: older converters copied the filter's quantized_dimension (3 for depthwise) */
  if (s.n > 1 && (qdim < 0 || qdim >= t->rank || (int64_t)s.n != t->dims[qdim]))
    return tensor_err(c, i, t->name, "has %u scales along dimension %lld, which %s", s.n, (long long)qdim,
                      qdim < 0 || qdim >= t->rank ? "the tensor does not have" : "has another size");
  t->nq = (int)s.n;
  t->qdim = (int)qdim;
  t->scale = glow_xmalloc(sizeof(float) * s.n);
  t->zero = glow_xcalloc(s.n, sizeof(int64_t));
  for (uint32_t k = 0; k < s.n; k++) {
    t->scale[k] = glow_fb_vec_float(&s, k);
    t->zero[k] = z.n ? glow_fb_vec_int(&z, k) : 0;
    if (!(t->scale[k] > 0.0f) || !isfinite(t->scale[k]))
      return tensor_err(c, i, t->name, "has quantization scale %g%s; a scale must be positive and finite: the "
                        "model's quantization is broken, convert it again", (double)t->scale[k],
                        s.n > 1 ? " (for one channel)" : "");
    if (!zero_fits(t->dt, t->zero[k]))
      return tensor_err(c, i, t->name, "has zero point %lld%s, which its type %s cannot hold: the model's "
                        "quantization is broken, convert it again", (long long)t->zero[k],
                        s.n > 1 ? " (for one channel)" : "", type_name(t->type));
  }
  return 0;
}

static int read_tensor(glow_tfl *c, uint32_t i, const glow_fb_vec *tv, const buffer *bufs, uint32_t nbufs) {
  glow_tfl_tensor *t = &c->t[i];
  glow_fb_table tt;
  glow_fb_vec shape;
  char made[32];
  snprintf(made, sizeof made, "tensor%u", i);
  t->name = glow_xstrdup(made);
  if (glow_fb_vec_table(tv, i, &tt))
    return tensor_err(c, i, made, "reading it");
  const char *name = glow_fb_string(&tt, T_NAME, "");
  if (glow_fb_failed(&c->fb))
    return tensor_err(c, i, made, "reading its name");
  if (*name && !(c->o->tflite.rename_tensors)) {
    free((char *)t->name);
    t->name = glow_xstrdup(name);
  }
  if (glow_fb_vec_field(&tt, T_SHAPE, 4, &shape) < 0)
    return tensor_err(c, i, t->name, "reading its shape");
  if (shape.n > GLOW_MAX_RANK)
    return tensor_err(c, i, t->name, "has rank %u; glowc supports tensors of rank %d at most", shape.n, GLOW_MAX_RANK);
  t->rank = (int)shape.n;
  int64_t numel = 1; /* bounded, so that no size computed from the shape overflows */
  for (uint32_t k = 0; k < shape.n; k++) {
    t->dims[k] = glow_fb_vec_int(&shape, k);
    if (t->dims[k] < 0)
      return tensor_err(c, i, t->name, "has dimension %u of size %lld; glowc compiles fixed shapes", k,
                        (long long)t->dims[k]);
    if (t->dims[k] && numel > GLOW_TFL_MAX_ELEMS / t->dims[k]) /* zeros skipped: Reshape copies dimensions */
      return tensor_err(c, i, t->name, "has dimensions multiplying to more than %lld (dimension %u is %lld); the "
                        "file is corrupt", (long long)GLOW_TFL_MAX_ELEMS, k, (long long)t->dims[k]);
    numel *= t->dims[k] ? t->dims[k] : 1;
  }
  t->type = (int)glow_fb_int(&tt, T_TYPE, 1, 0);
  t->dt = dtype_of(t->type);
  if (glow_fb_has(&tt, T_SPARSITY))
    return tensor_err(c, i, t->name, "is a sparse tensor, which glowc does not read; convert the model without "
                      "sparsification");
  uint64_t b = glow_fb_uint(&tt, T_BUFFER, 4, 0);
  if (glow_fb_failed(&c->fb))
    return tensor_err(c, i, t->name, "reading it");
  if (b >= nbufs && b)
    return tensor_err(c, i, t->name, "refers to buffer %llu; the model has %u", (unsigned long long)b, nbufs);
  if (b && bufs[b].size) {
    if (!t->dt)
      return tensor_err(c, i, t->name, "is a constant of type %s, which glowc does not compile", type_name(t->type));
    glow_value v = {.dt = t->dt, .rank = t->rank};
    memcpy(v.dims, t->dims, sizeof v.dims);
    if (glow_value_bytes(&v) != bufs[b].size) {
      char s[96];
      return tensor_err(c, i, t->name, "has shape %s (%zu bytes) but its buffer %llu holds %zu bytes; the file is "
                        "corrupt", glow_shape_str(&v, s, sizeof s), glow_value_bytes(&v), (unsigned long long)b,
                        bufs[b].size);
    }
    t->data = bufs[b].data;
    t->data_size = bufs[b].size;
  }
  t->val[0] = t->val[1] = t->qval[0] = t->qval[1] = -1;
  t->producer = -1;
  return read_quant(c, i, t, &tt);
}

static int read_tensors(glow_tfl *c, const glow_fb_table *sg, const buffer *bufs, uint32_t nbufs) {
  glow_fb_vec tv;
  if (glow_fb_vec_field(sg, SG_TENSORS, 4, &tv) < 0)
    return bad(c, "reading the subgraph's tensors");
  if (tv.n > GLOW_TFL_MAX_TENSORS) {
    glow_error(c->path, "the subgraph has %u tensors, more than the %d glowc reads", tv.n, GLOW_TFL_MAX_TENSORS);
    return -1;
  }
  c->ntensors = (int)tv.n;
  c->t = glow_xcalloc(tv.n ? tv.n : 1, sizeof *c->t);
  int rc = 0;
  for (uint32_t i = 0; i < tv.n && !rc; i++)
    rc = read_tensor(c, i, &tv, bufs, nbufs);
  return rc;
}

/* ---- operators ---- */

typedef struct {
  int64_t code;
  const char *custom;
  int version;
} opcode;

static int read_opcodes(glow_tfl *c, const glow_fb_table *model, opcode **out, uint32_t *n) {
  glow_fb_vec v;
  *out = NULL;
  if (glow_fb_vec_field(model, MODEL_OPCODES, 4, &v) < 0)
    return bad(c, "reading the model's operator codes");
  opcode *oc = glow_xcalloc(v.n ? v.n : 1, sizeof *oc);
  for (uint32_t i = 0; i < v.n; i++) {
    glow_fb_table t;
    if (glow_fb_vec_table(&v, i, &t))
      break;
    int64_t dep = glow_fb_int(&t, OC_DEPRECATED_CODE, 1, 0), code = glow_fb_int(&t, OC_CODE, 4, 0);
    oc[i].code = dep > code ? dep : code;
    oc[i].custom = glow_fb_string(&t, OC_CUSTOM, NULL);
    oc[i].version = (int)glow_fb_int(&t, OC_VERSION, 4, 1);
  }
  if (glow_fb_failed(&c->fb)) {
    free(oc);
    return bad(c, "reading the model's operator codes");
  }
  *out = oc;
  *n = v.n;
  return 0;
}

static void op_free(glow_tfl_op *op) {
  free(op->in);
  free(op->out);
}

static int read_index_list(glow_tfl *c, const glow_tfl_op *op, const glow_fb_table *t, int field, int optional,
                           int **out, int *n) {
  glow_fb_vec v;
  if (glow_fb_vec_field(t, field, 4, &v) < 0)
    return -1;
  if (v.n > MAX_OP_TENSORS)
    return glow_tfl_err(c, op, "lists %u tensors, more than the %d glowc reads", v.n, MAX_OP_TENSORS);
  *out = glow_xmalloc(sizeof(int) * (v.n ? v.n : 1));
  *n = (int)v.n;
  for (uint32_t k = 0; k < v.n; k++) {
    int64_t ti = glow_fb_vec_int(&v, k);
    if (ti < (optional ? -1 : 0) || ti >= c->ntensors)
      return glow_tfl_err(c, op, "%s %u is tensor %lld; the subgraph has tensors 0 to %d", optional ? "input" : "output",
                          k, (long long)ti, c->ntensors - 1);
    (*out)[k] = (int)ti;
  }
  return 0;
}

/* Operator i of the subgraph: its code, tensors and options. */
static int read_op(glow_tfl *c, const glow_fb_vec *ov, uint32_t i, const opcode *oc, uint32_t noc, glow_tfl_op *op) {
  glow_fb_table t;
  memset(op, 0, sizeof *op);
  op->index = (int)i;
  op->type = "?";
  if (glow_fb_vec_table(ov, i, &t))
    return bad(c, "reading an operator");
  uint64_t k = glow_fb_uint(&t, OP_OPCODE, 4, 0);
  if (glow_fb_failed(&c->fb))
    return bad(c, "reading an operator");
  if (k >= noc)
    return glow_tfl_err(c, op, "has operator code %llu; the model has %u", (unsigned long long)k, noc);
  op->code = oc[k].code;
  op->version = oc[k].version;
  op->type = op->code == CODE_CUSTOM ? (oc[k].custom ? oc[k].custom : "CUSTOM") : glow_tfl_builtin_name(op->code);
  if (!op->type)
    op->type = "an unknown builtin code";
  if (read_index_list(c, op, &t, OP_INPUTS, 1, &op->in, &op->nin) ||
      read_index_list(c, op, &t, OP_OUTPUTS, 0, &op->out, &op->nout))
    return glow_fb_failed(&c->fb) ? bad(c, "reading an operator's tensors") : -1;
  op->opts_type = (int64_t)glow_fb_uint(&t, OP_OPTS_TYPE, 1, 0);
  glow_fb_vec cv;
  if (glow_fb_table_field(&t, OP_OPTS, &op->opts) < 0 || glow_fb_vec_field(&t, OP_CUSTOM_OPTS, 1, &cv) < 0)
    return bad(c, "reading an operator's options");
  op->custom_opts = cv.n ? glow_fb_vec_bytes(&cv) : NULL;
  op->custom_opts_size = cv.n;
  return 0;
}

/* The operator's tensors are of types glowc compiles (a STRING or COMPLEX64 one reaches no importer). */
static int check_types(glow_tfl *c, const glow_tfl_op *op) {
  for (int k = 0; k < op->nin + op->nout; k++) {
    int out = k >= op->nin, ti = out ? op->out[k - op->nin] : op->in[k];
    if (ti >= 0 && !c->t[ti].dt)
      return glow_tfl_err(c, op, "%s %d ('%s') has type %s, which glowc does not compile", out ? "output" : "input",
                          out ? k - op->nin : k, c->t[ti].name, type_name(c->t[ti].type));
  }
  return 0;
}

/* Every operator has an importer and input and output counts that fit it; the
 * unsupported types are reported together, each with its operators. */
static int check_ops(glow_tfl *c, glow_tfl_op *ops, int nops) {
  int rc = 0, ntypes = 0;
  glow_strbuf list = {0};
  for (int i = 0; i < nops; i++) {
    const glow_tfl_op *op = &ops[i];
    const glow_tfl_op_info *info = op->code == CODE_CUSTOM ? NULL : glow_tfl_op_find(op->code);
    if (op->code == CODE_CUSTOM && !c->o->tflite.no_custom_operator) {
      rc |= check_types(c, op);
      continue;
    }
    if (info) {
      rc |= check_types(c, op);
      if (op->nin < info->min_in || op->nin > info->max_in || op->nout < info->min_out || op->nout > info->max_out)
        rc = glow_tfl_err(c, op, "%s takes %d to %d inputs and %d to %d outputs; this one has %d and %d", op->type,
                          info->min_in, info->max_in, info->min_out, info->max_out, op->nin, op->nout);
      for (int k = 0; k < info->min_in && k < op->nin; k++) /* only inputs past min_in are optional */
        if (op->in[k] < 0)
          rc = glow_tfl_err(c, op, "input %d is omitted (-1); %s needs its first %d inputs", k, op->type, info->min_in);
      continue;
    }
    int first = 1;
    for (int k = 0; k < i && first; k++)
      first = strcmp(ops[k].type, op->type) != 0 || ops[k].code != op->code;
    if (!first)
      continue;
    int count = 0;
    glow_strbuf which = {0};
    for (int k = i; k < nops; k++)
      if (ops[k].code == op->code && !strcmp(ops[k].type, op->type) && count++ < 4)
        glow_sb_printf(&which, "%s%d", count > 1 ? ", " : "", k);
    glow_sb_printf(&list, "%s%s", ntypes++ ? "; " : "", op->type);
    if (op->code != CODE_CUSTOM && !glow_tfl_builtin_name(op->code))
      glow_sb_printf(&list, " %lld", (long long)op->code); /* "an unknown builtin code 4000" */
    glow_sb_printf(&list, "%s (operator%s %s%s)", op->code == CODE_CUSTOM ? " (custom)" : "", count > 1 ? "s" : "",
                   which.s, count > 4 ? ", ..." : "");
    glow_sb_free(&which);
  }
  if (ntypes) {
    glow_strbuf known = {0};
    glow_tfl_op_list(&known, !c->o->tflite.no_custom_operator);
    glow_error(c->path, "%d unsupported TFLite operator%s: %s. glowc imports %s", ntypes, ntypes > 1 ? "s" : "",
               list.s, known.s);
    glow_sb_free(&known);
    rc = -1;
  }
  glow_sb_free(&list);
  return rc;
}

/* ---- inputs and outputs ---- */

static int read_io(glow_tfl *c, const glow_fb_table *sg, int field, glow_fb_vec *v, const char *what) {
  if (glow_fb_vec_field(sg, field, 4, v) < 0)
    return bad(c, what);
  for (uint32_t k = 0; k < v->n; k++) {
    int64_t ti = glow_fb_vec_int(v, k);
    if (ti < 0 || ti >= c->ntensors) {
      glow_error(c->path, "the subgraph's %s %u is tensor %lld; the subgraph has tensors 0 to %d", what, k,
                 (long long)ti, c->ntensors - 1);
      return -1;
    }
  }
  return 0;
}

/* A quantized input: its scale and offset shown in the bundle's header, or with
 * -tflite-float-inputs a float input, quantized by a QuantizeLinear. */
static int quantized_input(glow_tfl *c, int ti, int id) {
  glow_tfl_tensor *t = &c->t[ti];
  glow_value *v = &c->g->vals[id];
  if (!c->o->tflite.float_inputs) {
    v->qscale = t->scale[0];
    v->qoffset = (int32_t)t->zero[0];
    return 0;
  }
  glow_tfl_op none = {.index = -1, .type = "input", .nout = 1, .out = &ti};
  int in[3] = {id};
  if (glow_tfl_qparams(c, &none, ti, &in[1], &in[2]))
    return -1;
  glow_value_set_shape(v, GLOW_DT_F32, v->rank, v->dims);
  int q = glow_tfl_tmp(c, &none, "quantized");
  t->val[GLOW_TFL_NHWC] = q;
  return glow_tfl_infer(c, glow_tfl_node(c, &none, GLOW_OP_QUANTIZE_LINEAR, "quantize", 3, in, 1, &q));
}

static int add_inputs(glow_tfl *c, const glow_fb_vec *iv) {
  glow_graph *g = c->g;
  int rc = 0;
  if (glow_tfl_uint8_to_int8(c))
    return -1;
  g->inputs = glow_xmalloc(sizeof(int) * (iv->n + 1));
  for (uint32_t k = 0; k < iv->n; k++) {
    glow_tfl_tensor *t = &c->t[glow_fb_vec_int(iv, k)];
    if (t->data || t->val[GLOW_TFL_NHWC] >= 0)
      continue; /* a constant listed as an input, or listed twice */
    if (!t->dt) {
      glow_error(c->path, "input '%s' has type %s, which glowc does not compile", t->name, type_name(t->type));
      rc = -1;
      continue;
    }
    int id = glow_value_add(g, t->name);
    glow_str_table_put(&c->names, g->vals[id].name, id);
    g->vals[id].kind = GLOW_VAL_INPUT;
    glow_value_set_shape(&g->vals[id], t->dt, t->rank, t->dims);
    g->inputs[g->ninputs++] = id;
    t->val[GLOW_TFL_NHWC] = id;
    int opt = glow_model_input_find(c->o, t->name);
    if (opt >= 0 && !glow_model_input_bare(c->o, opt)) {
      glow_value_set_shape(&g->vals[id], c->o->input_types[opt], c->o->input_ranks[opt], c->o->input_dims[opt]);
      t->rank = c->o->input_ranks[opt];
      memcpy(t->dims, c->o->input_dims[opt], sizeof(int64_t) * (size_t)t->rank);
      if (glow_model_input_quantized(c->o, opt)) {
        int f = glow_model_input_dequantize(g, id, c->o, opt, c->path);
        rc |= f < 0;
        t->val[GLOW_TFL_NHWC] = f;
        continue;
      }
    }
    if (glow_tfl_is_q(t) && t->nq == 1)
      rc |= quantized_input(c, (int)glow_fb_vec_int(iv, k), id);
  }
  for (int k = 0; k < c->o->ninputs; k++) {
    int found = 0;
    for (int i = 0; i < g->ninputs; i++)
      found |= !strcmp(g->vals[g->inputs[i]].name, c->o->input_names[k]);
    if (found)
      continue;
    glow_strbuf list = {0};
    for (int i = 0; i < g->ninputs; i++)
      glow_sb_printf(&list, "%s'%s'", i ? ", " : "", g->vals[g->inputs[i]].name);
    glow_error(c->path, "-model-input names '%s', but the model has no such input; its inputs are: %s",
               c->o->input_names[k], g->ninputs ? list.s : "(none)");
    glow_sb_free(&list);
    rc = -1;
  }
  return rc;
}

/* Value v hands its name to a new value, returned, which becomes the graph output;
 * v is renamed "<name>/<what>". */
static int rename_output(glow_tfl *c, int v, const char *what) {
  glow_graph *g = c->g;
  glow_strbuf b = {0};
  glow_sb_printf(&b, "%s/%s", g->vals[v].name, what);
  int f = glow_value_add(g, b.s);
  glow_sb_free(&b);
  char *name = g->vals[v].name;
  g->vals[v].name = g->vals[f].name;
  g->vals[f].name = name;
  glow_str_table_put(&c->names, g->vals[v].name, v);
  glow_str_table_put(&c->names, g->vals[f].name, f);
  return f;
}

/* The float value a quantized output stands for: with -tflite-float-softmax, a
 * Softmax's own (its QuantizeLinear goes); with -tflite-float-outputs, a DequantizeLinear
 * of it. Else v itself, with its scale and offset shown in the bundle's header. */
static int float_output(glow_tfl *c, int ti, int v) {
  glow_graph *g = c->g;
  glow_tfl_tensor *t = &c->t[ti];
  int p = g->vals[v].producer, sm = p >= 0 && g->nodes[p].op == GLOW_OP_QUANTIZE_LINEAR ? g->nodes[p].in[0] : -1;
  if (c->o->tflite.float_softmax && sm >= 0 && g->vals[sm].producer >= 0 &&
      g->nodes[g->vals[sm].producer].op == GLOW_OP_SOFTMAX) {
    char *name = g->vals[v].name; /* the Softmax's value takes the output's name */
    g->vals[v].name = g->vals[sm].name;
    g->vals[sm].name = name;
    glow_str_table_put(&c->names, g->vals[v].name, v);
    glow_str_table_put(&c->names, g->vals[sm].name, sm);
    return sm;
  }
  if (!glow_tfl_is_q(t) || t->nq != 1)
    return v;
  if (!c->o->tflite.float_outputs) {
    g->vals[v].qscale = t->scale[0];
    g->vals[v].qoffset = (int32_t)t->zero[0];
    return v;
  }
  glow_tfl_op none = {.index = -1, .type = "output", .nout = 1, .out = &ti};
  int in[3] = {v};
  if (glow_tfl_qparams(c, &none, ti, &in[1], &in[2]))
    return -1;
  int f = rename_output(c, v, "quantized");
  return glow_tfl_infer(c, glow_tfl_node(c, &none, GLOW_OP_DEQUANTIZE_LINEAR, "dequantize", 3, in, 1, &f)) ? -1 : f;
}

static int add_outputs(glow_tfl *c, const glow_fb_vec *ov) {
  glow_graph *g = c->g;
  int rc = 0;
  g->outputs = glow_xmalloc(sizeof(int) * (ov->n + 1));
  glow_tfl_op none = {.index = -1, .type = "output"};
  for (uint32_t k = 0; k < ov->n; k++) {
    int ti = (int)glow_fb_vec_int(ov, k);
    glow_tfl_tensor *t = &c->t[ti];
    if (t->val[GLOW_TFL_NHWC] < 0 && t->val[GLOW_TFL_NCHW] < 0) {
      glow_error(c->path, "output '%s' is %s", t->name,
                 t->data ? "a constant: glowc compiles outputs that the model computes" : "not written by any operator");
      rc = -1;
      continue;
    }
    none.nin = 1;
    none.in = &ti;
    int v = glow_tfl_in(c, &none, 0, GLOW_TFL_NHWC);
    if (v < 0 || g->vals[v].kind != GLOW_VAL_ACT || g->vals[v].is_output) {
      glow_error(c->path, "output '%s' is %s", t->name, v >= 0 && g->vals[v].is_output ? "listed twice" :
                 "an input or a constant: glowc compiles outputs that the model computes");
      rc = -1;
      continue;
    }
    if ((v = float_output(c, ti, v)) < 0) {
      rc = -1;
      continue;
    }
    g->vals[v].is_output = 1;
    g->outputs[g->noutputs++] = v;
  }
  if (!ov->n) {
    glow_error(c->path, "the subgraph lists no outputs: glowc cannot tell what the bundle computes");
    rc = -1;
  }
  return rc;
}

/* Each output the operator wrote has the type and shape the model declares
 * (a rank-0 declaration is TFLite's "unknown": the computed shape is kept). */
static int check_outputs(glow_tfl *c, const glow_tfl_op *op) {
  for (int k = 0; k < op->nout; k++) {
    glow_tfl_tensor *t = &c->t[op->out[k]];
    int nchw = t->val[GLOW_TFL_NHWC] < 0, id = t->val[nchw];
    if (id < 0)
      return glow_tfl_err(c, op, "output %d ('%s') is not computed by glowc's importer of %s", k, t->name, op->type);
    const glow_value *v = &c->g->vals[id];
    glow_value want = {.dt = v->dt, .rank = t->rank};
    for (int d = 0; d < t->rank; d++)
      want.dims[d] = t->dims[nchw ? (int[]){0, 3, 1, 2}[d] : d];
    if (!t->rank && v->rank > 0) {
      t->rank = v->rank;
      for (int d = 0; d < v->rank; d++)
        t->dims[nchw ? (int[]){0, 3, 1, 2}[d] : d] = v->dims[d];
      continue;
    }
    if (!glow_value_same_type(v, &want) || (t->dt && v->dt != t->dt)) {
      char got[96], decl[96];
      want.dt = t->dt ? t->dt : v->dt;
      return glow_tfl_err(c, op, "output %d ('%s') is computed as %s%s, but the model declares %s: the model's "
                          "shapes do not fit its operators", k, t->name, glow_shape_str(v, got, sizeof got),
                          nchw ? " (NCHW)" : "", glow_shape_str(&want, decl, sizeof decl));
    }
  }
  return 0;
}

/* ---- the model ---- */

static int import_ops(glow_tfl *c, const glow_fb_table *model, const glow_fb_table *sg) {
  opcode *oc = NULL;
  uint32_t noc = 0;
  glow_fb_vec ov;
  if (read_opcodes(c, model, &oc, &noc))
    return -1;
  if (glow_fb_vec_field(sg, SG_OPERATORS, 4, &ov) < 0) {
    free(oc);
    return bad(c, "reading the subgraph's operators");
  }
  if (ov.n > GLOW_MAX_NODES) {
    free(oc);
    glow_error(c->path, "the subgraph has %u operators, more than the %d glowc reads", ov.n, GLOW_MAX_NODES);
    return -1;
  }
  glow_tfl_op *ops = glow_xcalloc(ov.n ? ov.n : 1, sizeof *ops);
  int rc = 0;
  uint64_t refs = 0; /* tensor indices listed: 4 bytes of the file each, unless lists are shared */
  for (uint32_t i = 0; i < ov.n && !rc; i++) {
    rc = read_op(c, &ov, i, oc, noc, &ops[i]);
    refs += (uint64_t)ops[i].nin + (uint64_t)ops[i].nout;
    if (!rc && 4 * refs > c->fb.size)
      rc = glow_tfl_err(c, &ops[i], "brings the tensor indices the operators list to %llu, more than the file's %zu "
                        "bytes hold: operators share their lists, which no converter writes; the file is corrupt",
                        (unsigned long long)refs, c->fb.size);
  }
  for (uint32_t i = 0; i < ov.n && !rc; i++)
    for (int k = 0; k < ops[i].nout && !rc; k++) {
      glow_tfl_tensor *t = &c->t[ops[i].out[k]];
      if (t->producer >= 0 || t->data)
        rc = glow_tfl_err(c, &ops[i], "writes tensor '%s', which %s", t->name,
                          t->data ? "is a constant" : "an earlier operator writes too");
      t->producer = (int)i;
    }
  if (!rc)
    rc = check_ops(c, ops, (int)ov.n);
  glow_fb_vec iv, outv;
  if (!rc)
    rc = read_io(c, sg, SG_INPUTS, &iv, "input") || read_io(c, sg, SG_OUTPUTS, &outv, "output") ||
         add_inputs(c, &iv);
  for (uint32_t i = 0; i < ov.n && !rc; i++) {
    const glow_tfl_op *op = &ops[i];
    rc = op->code == CODE_CUSTOM ? glow_tfl_custom(c, op) : glow_tfl_op_for(c, op)->emit(c, op);
    rc = rc || check_outputs(c, op);
  }
  if (!rc)
    rc = add_outputs(c, &outv);
  for (uint32_t i = 0; i < ov.n; i++)
    op_free(&ops[i]);
  free(ops);
  free(oc);
  return rc;
}

static int import_model(glow_tfl *c) {
  glow_fb_table model, sg;
  glow_fb_vec sgs;
  if (glow_fb_root(&c->fb, "TFL3", &model)) {
    glow_error(c->path, "not a TFLite model: %s; a .tflite file is a FlatBuffer with identifier 'TFL3', as the "
               "TFLite converter writes it", c->fb.err);
    return -1;
  }
  uint64_t version = glow_fb_uint(&model, MODEL_VERSION, 4, 0);
  if (glow_fb_vec_field(&model, MODEL_SUBGRAPHS, 4, &sgs) < 0)
    return bad(c, "reading the model's subgraphs");
  if (version != 3) {
    glow_error(c->path, "the model has schema version %llu; glowc reads version 3, which every TFLite converter "
               "since 2018 writes", (unsigned long long)version);
    return -1;
  }
  if (!sgs.n) {
    glow_error(c->path, "the model has no subgraph");
    return -1;
  }
  if (glow_fb_vec_table(&sgs, 0, &sg))
    return bad(c, "reading the main subgraph");
  buffer *bufs = NULL;
  uint32_t nbufs = 0;
  int rc = read_buffers(c, &model, &bufs, &nbufs) || read_tensors(c, &sg, bufs, nbufs) || import_ops(c, &model, &sg);
  free(bufs);
  return rc ? -1 : 0;
}

glow_graph *glow_import_tflite_bytes(const void *data, size_t size, const char *path, const glow_import_options *o) {
  static const glow_import_options none;
  glow_tfl c = {.path = path, .o = o ? o : &none, .fb = {.buf = data, .size = size}};
  c.g = glow_graph_create(path);
  c.g->opset = TFLITE_ONNX_OPSET;
  int rc = import_model(&c);
  for (int i = 0; i < c.ntensors; i++) {
    free((char *)c.t[i].name);
    free(c.t[i].scale);
    free(c.t[i].zero);
  }
  free(c.t);
  glow_str_table_free(&c.names);
  if (rc) {
    glow_graph_free(c.g);
    return NULL;
  }
  return c.g;
}

glow_graph *glow_import_tflite(const char *path, const glow_import_options *o) {
  uint8_t *data = NULL;
  size_t size = 0;
  if (glow_read_file(path, &data, &size))
    return NULL;
  glow_graph *g = glow_import_tflite_bytes(data, size, path, o);
  free(data);
  return g;
}

int glow_tflite_file(const char *path) {
  size_t n = strlen(path);
  if (n > 7 && !strcmp(path + n - 7, ".tflite"))
    return 1;
  FILE *f = fopen(path, "rb");
  unsigned char head[8];
  int is = f && fread(head, 1, 8, f) == 8 && !memcmp(head + 4, "TFL3", 4);
  if (f)
    fclose(f);
  return is;
}
