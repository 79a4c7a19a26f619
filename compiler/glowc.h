/* glowc internal header: the graph IR and a table of contents of the compiler,
 * prototypes grouped under the file that defines them. Host-only code. */
#ifndef GLOWC_H
#define GLOWC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../targets/common/kernel-abi.h" /* the kernels' parameter structs and constants */

#define GLOWC_VERSION "0.1.0"
#define GLOW_MAX_RANK 8
#define GLOW_ALIGN 64
/* Hostile-input limits, checked on a file's bytes before anything is decoded
 * (README "Bad input"): nodes in a model (ONNX NodeProto, Caffe2 OperatorDef)
 * and protobuf messages in one file. */
#define GLOW_MAX_NODES (1 << 16)
#define GLOW_PB_MAX_MESSAGES (1 << 22)

/* Internal bugs abort with file:line; user errors go through glow_error(). */
#define unreachable() glow_internal(__FILE__, __LINE__, "unreachable")
#define GLOW_ASSERT(c) ((c) ? (void)0 : glow_internal(__FILE__, __LINE__, #c))

/* Element types; values are ONNX TensorProto.DataType numbers. */
typedef enum {
  GLOW_DT_UNDEF = 0,
  GLOW_DT_F32 = 1,
  GLOW_DT_U8 = 2,
  GLOW_DT_I8 = 3,
  GLOW_DT_U16 = 4,
  GLOW_DT_I16 = 5,
  GLOW_DT_I32 = 6,
  GLOW_DT_I64 = 7,
  GLOW_DT_STRING = 8,
  GLOW_DT_BOOL = 9,
  GLOW_DT_F16 = 10,
  GLOW_DT_F64 = 11,
  GLOW_DT_U32 = 12,
  GLOW_DT_U64 = 13,
  GLOW_DT_BF16 = 16,
  GLOW_DT_COUNT = 17
} glow_dtype;

typedef enum {
  GLOW_VAL_ACT = 0,   /* intermediate tensor, lives in the activations area */
  GLOW_VAL_CONST = 1, /* constant weight, data owned by the value */
  GLOW_VAL_INPUT = 2, /* graph input (mutable area) */
} glow_val_kind;

typedef struct glow_value {
  char *name;
  glow_dtype dt;
  int rank; /* -1: shape not known yet */
  int64_t dims[GLOW_MAX_RANK];
  glow_val_kind kind;
  int is_output;  /* graph output (mutable area) */
  void *data;     /* GLOW_VAL_CONST: dense row-major bytes */
  int producer;   /* node id or -1 */
  float qscale;   /* a quantized graph input's scale (-model-input=x,int8q,scale,offset,...); 0: none */
  int32_t qoffset; /* and its offset (zero point) */
} glow_value;

typedef enum {
  GLOW_ATTR_UNDEF = 0,
  GLOW_ATTR_FLOAT = 1,
  GLOW_ATTR_INT = 2,
  GLOW_ATTR_STRING = 3,
  GLOW_ATTR_TENSOR = 4,
  GLOW_ATTR_GRAPH = 5,
  GLOW_ATTR_FLOATS = 6,
  GLOW_ATTR_INTS = 7,
  GLOW_ATTR_STRINGS = 8,
} glow_attr_type; /* ONNX AttributeProto.AttributeType numbers */

typedef struct glow_attr {
  char *name;
  glow_attr_type type;
  int64_t i;
  double f;
  char *s;          /* STRING (NUL-terminated copy) */
  int n;            /* element count for INTS / FLOATS / STRINGS */
  int64_t *ints;
  double *floats;
  char **strings;
  int t_value;      /* TENSOR: id of a constant value holding it */
} glow_attr;

/* Op kinds, one per line in ops.def. */
typedef enum {
#define GLOW_OP(id, onnx_name) GLOW_OP_##id,
#include "ir/ops.def"
#undef GLOW_OP
  GLOW_OP_COUNT
} glow_op;

typedef struct glow_node {
  char *name;
  glow_op op;
  int nin, nout;
  int *in;  /* value ids; -1 for an omitted optional input */
  int *out; /* value ids; -1 for an omitted optional output */
  int nattr;
  glow_attr *attrs;
  int dead;
} glow_node;

typedef struct glow_graph {
  const char *file; /* model path, for diagnostics only (never in outputs) */
  int64_t opset;    /* default-domain opset */
  glow_value *vals;
  int nvals, capvals;
  glow_node *nodes;
  int nnodes, capnodes;
  int *inputs, ninputs;   /* graph inputs in model order */
  int *outputs, noutputs; /* graph outputs in model order */
} glow_graph;

/* An argument of a call to a function of the bundle's caller (glow_kcall_extern). */
typedef enum {
  GLOW_KARG_INT,    /* int: i */
  GLOW_KARG_STRING, /* const char *: a NUL-terminated constant copy of bytes[0, n) */
  GLOW_KARG_BYTES,  /* const uint8_t *: a constant copy of bytes[0, n) (never NULL: a 0 byte follows) */
  GLOW_KARG_ADDRS,  /* uint8_t **: the addresses of tensors[first, first + n) (NULL for -1) */
  GLOW_KARG_SIZES,  /* int *: their sizes in bytes (0 for -1) */
} glow_karg_kind;
typedef struct glow_karg {
  glow_karg_kind kind;
  int64_t i;
  uint8_t *bytes; /* STRING, BYTES: i bytes and a 0 after them (malloc'd) */
  int first, n;
} glow_karg;
#define GLOW_KCALL_MAX_ARGS 8

/* -num-threads-min-work's default: the least work per part for a step to split. */
#define GLOW_THREAD_MIN_WORK 524288

/* A kernel call: what codegen emits for one node. */
typedef struct glow_kcall {
  char kernel[96];   /* symbol in the target's kernel bitcode, e.g. "glow_k_add_f32" */
  int ntensors;
  int tensors[64];   /* value ids; outputs first, then inputs */
  int nparams, capparams;
  int64_t *params;   /* shapes, strides, attributes; floats as glow_f2p() bits */
  /* glow_kcall_extern: `kernel` is a function of the bundle's caller (C linkage, returning
   * void), called with args; decl is its declaration with a comment, for the bundle header. */
  const char *decl;  /* NULL: a kernel */
  int nargs;
  glow_karg args[GLOW_KCALL_MAX_ARGS];
  /* Parts for a kernel without a _part variant (glow_kcall_split): params[split_param]
   * counts split_n units of an outer range; each part runs the kernel on a slice of
   * them, whole multiples of split_align units, with that param set to the slice's
   * count and tensor i moved by split_bytes[i] bytes a unit (0: read whole). */
  int split_param;
  int64_t split_n, split_align, split_bytes[64];
} glow_kcall;

/* How an op is imported, inferred, interpreted and lowered. Each op group
 * file defines `const glow_op_info glow_op_<ID>` for its ops. */
typedef struct glow_op_info {
  const char *onnx_name;
  int min_in, max_in, min_out, max_out;
  /* Sets dtype and shape of every output; reads constant inputs when the
   * shape depends on them. Returns 0, or -1 after glow_node_error(). */
  int (*infer)(glow_graph *g, glow_node *n);
  /* Reference semantics: dense row-major buffers, shapes from the graph. */
  int (*eval)(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins);
  /* Chooses the kernel and packs its parameters. */
  int (*lower)(const glow_graph *g, const glow_node *n, glow_kcall *kc);
} glow_op_info;

#define GLOW_OP(id, onnx_name) extern const glow_op_info glow_op_##id;
#include "ir/ops.def"
#undef GLOW_OP
/* ops/op-table.c */
const glow_op_info *glow_op_get(glow_op op);

/* util/diag.c */
void glow_internal(const char *file, int line, const char *msg);
void glow_error(const char *where, const char *fmt, ...);
void glow_warning(const char *where, const char *fmt, ...); /* "where: warning: ..."; not counted as an error */
void glow_verror(const char *where, const char *fmt, va_list ap); /* glow_error's va_list form */
int glow_error_count(void);
int glow_set_quiet(int quiet); /* diagnostics counted but not printed (fuzzing); returns the previous setting */
void glow_note(const char *fmt, ...);

/* util/mem.c */
void *glow_xmalloc(size_t n);
void *glow_xcalloc(size_t n, size_t sz);
void *glow_xrealloc(void *p, size_t n);
char *glow_xstrdup(const char *s);

/* util/write-atomic.c: outputs go to a temporary name and are renamed by
 * glow_outset_commit(), so a failed compile leaves nothing behind. */
typedef struct glow_outset glow_outset;
glow_outset *glow_outset_create(void);
int glow_outset_write(glow_outset *o, const char *path, const void *data, size_t size);
int glow_outset_commit(glow_outset *o);
void glow_outset_free(glow_outset *o); /* removes uncommitted temporaries; NULL ok */

/* util/sha256.c: nettle's SHA-256 */
typedef struct glow_sha256_ctx { uint64_t opaque[16]; } glow_sha256_ctx; /* holds a nettle sha256_ctx */
void glow_sha256_init(glow_sha256_ctx *s);
void glow_sha256_update(glow_sha256_ctx *s, const void *data, size_t size);
void glow_sha256_final(glow_sha256_ctx *s, unsigned char out[32]);
void glow_sha256(const void *data, size_t size, unsigned char out[32]);
void glow_sha256_hex(const unsigned char digest[32], char hex[65]);

/* util/strbuf.c */
typedef struct glow_strbuf { char *s; size_t len, cap; } glow_strbuf;
void glow_sb_printf(glow_strbuf *b, const char *fmt, ...);
void glow_sb_vprintf(glow_strbuf *b, const char *fmt, va_list ap);
void glow_sb_append(glow_strbuf *b, const void *data, size_t size); /* bytes, 0 after them */
/* size more bytes at the end (0 after them), for the caller to fill: where they start */
char *glow_sb_extend(glow_strbuf *b, size_t size);
void glow_sb_free(glow_strbuf *b);

/* util/str-table.c: a string -> int table (open addressing); keys are borrowed, not copied */
typedef struct glow_str_table {
  const char **keys;
  int *vals;
  size_t cap, n;
} glow_str_table;
int *glow_str_table_get(glow_str_table *t, const char *key); /* NULL if absent */
void glow_str_table_put(glow_str_table *t, const char *key, int val);
void glow_str_table_free(glow_str_table *t);

/* util/read-file.c: a whole file, 0-terminated (malloc'd); -1 after reporting why not. */
int glow_read_file(const char *path, uint8_t **data, size_t *size);
/* util/run-tool.c: runs argv (argv[0] found through PATH when it has no '/'; no shell), its
 * output into the file `log`, printed to stderr when it succeeds (warnings).
 * @return 0, or -1 after an error naming `option`, the command, its exit status and output. */
int glow_run_tool(const char *option, char *const *argv, const char *log);
/* A new private folder under $TMPDIR (else /tmp), malloc'd; NULL after an error naming `option`
 * and `what` it was for. glow_temp_dir_remove() deletes it, its files and the string (NULL ok). */
char *glow_temp_dir(const char *option, const char *what);
void glow_temp_dir_remove(char *dir);
/* "<dir>/<name>", malloc'd. */
char *glow_temp_path(const char *dir, const char *name);
/* ir/dtype.c */
size_t glow_dtype_size(glow_dtype dt);
const char *glow_dtype_name(glow_dtype dt);       /* "float", "int64", ... (ONNX names) */
const char *glow_dtype_suffix(glow_dtype dt);     /* kernel suffix: "f32", "i64", ... */
int glow_dtype_is_float(glow_dtype dt);
int glow_dtype_is_signed_int(glow_dtype dt);
int glow_dtype_is_unsigned_int(glow_dtype dt);
glow_dtype glow_dtype_from_name(const char *name); /* "float", "f32", "int64", ...; UNDEF if unknown */

/* ir/graph.c */
glow_graph *glow_graph_create(const char *file);
void glow_graph_free(glow_graph *g);
int glow_value_add(glow_graph *g, const char *name); /* returns id; name may be NULL */
int glow_value_find(const glow_graph *g, const char *name);
int glow_node_add(glow_graph *g, glow_op op, const char *name, int nin, const int *in, int nout, const int *out);
/* How many inputs of live nodes read each value: g->nvals counts (malloc'd; the caller frees it). */
int *glow_use_counts(const glow_graph *g);
/* The live node that is the only reader of value v (uses: glow_use_counts), or -1 where
 * several or none read it or it is a graph output. */
int glow_sole_user(const glow_graph *g, const int *uses, int v);
/* Fusing: node `node` now writes node `by`'s first output (its own first output loses its
 * producer), and `by` dies. */
void glow_node_take_output(glow_graph *g, int node, int by);
void glow_node_free(glow_node *n); /* its name, inputs, outputs and attributes (the node itself is in g->nodes) */
int64_t glow_value_numel(const glow_value *v);
size_t glow_value_bytes(const glow_value *v);
void glow_value_set_shape(glow_value *v, glow_dtype dt, int rank, const int64_t *dims);
int glow_value_make_const(glow_graph *g, int id, glow_dtype dt, int rank, const int64_t *dims, const void *data);
/* A new constant made from value `base` (its weights packed, transformed or folded), named
 * <base's name><suffix>; returns its id. g->vals may move: earlier pointers into it are stale. */
int glow_value_add_derived(glow_graph *g, int base, const char *suffix, glow_dtype dt, int rank, const int64_t *dims,
                           const void *data);
const char *glow_op_name(glow_op op); /* its ONNX name, from ops.def */
glow_op glow_op_from_onnx(const char *onnx_name); /* GLOW_OP_COUNT if unknown */
char *glow_shape_str(const glow_value *v, char *buf, size_t cap); /* "float[1,3,224,224]" */
int glow_value_same_type(const glow_value *a, const glow_value *b); /* same dtype and shape */
/* A value of g named `name`, or `name`__<k> for the first k that `names` (every value name so far) lacks. */
int glow_value_add_unique(glow_graph *g, glow_str_table *names, const char *name);

/* ir/attrs.c */
const glow_attr *glow_attr_find(const glow_node *n, const char *name);
void glow_attr_add_int(glow_node *n, const char *name, int64_t v);  /* a compiler-made attribute (glow.*) */
void glow_attr_add_float(glow_node *n, const char *name, double v);
void glow_attr_add_ints(glow_node *n, const char *name, int count, const int64_t *v); /* the same, count values */
void glow_attr_clear(glow_attr *a); /* its values freed and zeroed; the name kept */
/* The attribute `name` of n, emptied for new values: the existing one, or a new one appended. */
glow_attr *glow_attr_slot(glow_node *n, const char *name);
int64_t glow_attr_int(const glow_node *n, const char *name, int64_t dflt);
double glow_attr_float(const glow_node *n, const char *name, double dflt);
const char *glow_attr_string(const glow_node *n, const char *name, const char *dflt);
/* INTS attribute: returns its count (or -1 if absent) and the array through *v. */
int glow_attr_ints(const glow_node *n, const char *name, const int64_t **v);
/* Integer contents of a constant input (any integer dtype) into v[cap]; returns count or -1. */
int glow_const_ints(const glow_graph *g, int id, int64_t *v, int cap);

/* ir/kcall.c */
void glow_kcall_init(glow_kcall *kc, const char *kernel_fmt, ...);
void glow_kcall_tensor(glow_kcall *kc, int value_id);
void glow_kcall_param(glow_kcall *kc, int64_t p);
void glow_kcall_paramf(glow_kcall *kc, double f);
void glow_kcall_params(glow_kcall *kc, int n, const int64_t *p);
void glow_kcall_free(glow_kcall *kc);
/* Lets codegen split the step into parts over the count in params[param] (see
 * glow_kcall): bytes[i], for each tensor added so far, is how far a unit moves it. */
void glow_kcall_split(glow_kcall *kc, int param, const int64_t *bytes);
int64_t glow_f2p(double f);
/* A call to `name`, a function the bundle's caller defines, instead of a kernel (a step the
 * program computes itself); decl: its C declaration with a comment, a static string. Its
 * arguments follow in order; ADDRS and SIZES take ranges of the tensors added with
 * glow_kcall_tensor. */
void glow_kcall_extern(glow_kcall *kc, const char *name, const char *decl);
void glow_kcall_arg_int(glow_kcall *kc, int64_t v);
void glow_kcall_arg_bytes(glow_kcall *kc, glow_karg_kind kind, const void *data, size_t n); /* STRING, BYTES */
void glow_kcall_arg_tensors(glow_kcall *kc, glow_karg_kind kind, int first, int n);       /* ADDRS, SIZES */

/* ir/verify.c */
int glow_graph_verify(const glow_graph *g);

/* ir/topo-order.c: the nodes reordered so every value is computed before it is read,
 * keeping their order where it already is (node ids change; value producers follow).
 * Returns 0, or -1 if the nodes read each other in a cycle (the graph is unchanged). */
int glow_graph_topo_order(glow_graph *g);

/* ir/dump.c */
void glow_graph_dump(const glow_graph *g, FILE *f);
int glow_graph_dump_dot(const glow_graph *g, const char *path);

/* ir/node-error.c: "<model file>:<node name> (<op>): error: ..."; returns -1 */
int glow_node_error(const glow_graph *g, const glow_node *n, const char *fmt, ...);

/* ir/elem.c: generic element access for reference code */
double glow_elem_get(glow_dtype dt, const void *p, int64_t i);
void glow_elem_set(glow_dtype dt, void *p, int64_t i, double v);
int64_t glow_elem_geti(glow_dtype dt, const void *p, int64_t i);
void glow_elem_seti(glow_dtype dt, void *p, int64_t i, int64_t v);

/* importer/import-onnx.c */
/* Glow's -tflite-* options; all zero is Glow's defaults. */
typedef struct glow_tflite_options {
  int float_inputs, float_outputs; /* quantized inputs and outputs as float, converted in the bundle */
  int float_softmax;               /* a quantized Softmax computed in float */
  int rename_tensors;              /* tensors named tensor<index> */
  int keep_uint8;                  /* -tflite-uint8-to-int8=false: uint8 tensors stay uint8 */
  int no_custom_operator;          /* -tflite-enable-custom-operator=false: custom ops are refused */
  double bias_scale_max_error;     /* 0: Glow's 1e-6 */
  int bias_scale_no_error;         /* -tflite-bias-scale-check-throw-error=false */
  const char *dump_graph;          /* -tflite-dump-graph=<file.dot> */
} glow_tflite_options;
typedef struct glow_import_options {
  int nsymbols;
  const char **symbol_names;
  int64_t *symbol_values;     /* -onnx-define-symbol=name,value */
  int ninputs;
  const char **input_names;   /* -model-input=name[,type[,scale,offset],[dims]] */
  glow_dtype *input_types;    /* 0 for a bare name (Glow's -model-input-name): the model's type */
  int *input_ranks;           /* -1 for a bare name: the model's shape */
  int64_t (*input_dims)[GLOW_MAX_RANK];
  float *input_scales;        /* Glow's int8q/int16q/int32q forms: the placeholder keeps this */
  int32_t *input_offsets;     /* quantized type, scale and offset in the bundle (0 scale: not quantized) */
  glow_tflite_options tflite;
} glow_import_options;
glow_graph *glow_import_onnx(const char *path, const glow_import_options *o);
/* The same from bytes in memory; `path` only names them in messages. */
glow_graph *glow_import_onnx_bytes(const void *data, size_t size, const char *path, const glow_import_options *o);

/* importer/import-caffe2.c: a Caffe2 model, predict_net.pb (the ops) and init_net.pb (the
 * weights, as fill ops). Inputs need -model-input: Caffe2 nets record no input shapes. */
glow_graph *glow_import_caffe2(const char *predict_net, const char *init_net, const glow_import_options *o);
glow_graph *glow_import_caffe2_bytes(const void *predict, size_t predict_size, const void *init, size_t init_size,
                                     const char *predict_path, const char *init_path, const glow_import_options *o);

/* importer/model-input.c: what both importers make of -model-input's forms */
/* Option k for input `name`, or -1 if -model-input does not name it. */
int glow_model_input_find(const glow_import_options *o, const char *name);
/* 1 if option k is a bare name (Glow's -model-input-name): type and shape from the model. */
int glow_model_input_bare(const glow_import_options *o, int k);
/* 1 if option k is a quantized form (int8q, int16q, int32q with a scale and an offset). */
int glow_model_input_quantized(const glow_import_options *o, int k);
/* Input value `id`, already of option k's quantized type and shape, keeps that type and
 * records its scale and offset; a DequantizeLinear (inferred now) computes its float value,
 * which every node reading `id` reads instead. Returns the float value's id, or -1 after
 * an error naming `where` (a scale that is not positive, an offset outside the type). */
int glow_model_input_dequantize(glow_graph *g, int id, const glow_import_options *o, int k, const char *where);

/* importer/batch-check.c: a -model-input batch other than the model's. Both graphs are the
 * same import, `given` at the batches -model-input gives and `model` at the model's own
 * (given[i] for model_batch[i], n pairs; input: the first such input's name). Shapes are
 * inferred in both, quietly; if `given` then fails, or an output's shape changes other than
 * by the batch, the node that fixes the model's batch is named. Returns 0 or -1 after errors;
 * 0 too when the model does not infer at its own batch (compiling it reports that). */
int glow_batch_check(glow_graph *given, glow_graph *model, const char *input, const int64_t *given_batch,
                     const int64_t *model_batch, int n);

/* importer/import-tflite.c: a .tflite model (TFLite's FlatBuffer, schema version 3) */
glow_graph *glow_import_tflite(const char *path, const glow_import_options *o);
glow_graph *glow_import_tflite_bytes(const void *data, size_t size, const char *path, const glow_import_options *o);
/* 1 if path names a .tflite file (by its extension, or its FlatBuffer identifier TFL3). */
int glow_tflite_file(const char *path);

/* importer/import-model.c: -model as given (init_net: a second -model, or NULL) */
/* 1 and the two paths (malloc'd) if it names a Caffe2 model (a folder, or two files), else 0. */
int glow_caffe2_paths(const char *model, const char *init_net, char **predict, char **init);
/* The graph of an ONNX file or a Caffe2 model; NULL after errors. */
glow_graph *glow_import_model(const char *model, const char *init_net, const glow_import_options *o);

/* importer/input-names.c: the input names a model (as glow_import_model takes it) declares:
 * ONNX graph.input, Caffe2 predict_net's external_input, TFLite subgraph 0's inputs (named
 * as o's -tflite-rename-tensors has the importer name them); read without decoding the model.
 * malloc'd, each and the array. @return 0, or -1 after reporting a file that cannot be read. */
int glow_model_input_names(const char *model, const char *init_net, const glow_import_options *o, char ***names,
                           int *n);

/* importer/op-domain.c: the domain an op is taken from */
/* Whether d is the default domain: NULL, "" or "ai.onnx". */
int glow_onnx_default_domain(const char *d);
/* Whether op (an op_type) is taken from domain d: the com.microsoft ops glowc
 * runs only from com.microsoft, every other op only from the default domain. */
int glow_onnx_domain_ok(const char *d, const char *op);
/* Appends to why the reason op from d is refused, for a message (nothing when
 * the domain is not the reason). */
void glow_onnx_domain_why(const char *d, const char *op, glow_strbuf *why);
/* importer/op-refusal.c: appends to why the reason an op glowc has no
 * definition for is refused (training, random, data-dependent shape, control
 * flow, sequences, strings, or not implemented yet). */
void glow_onnx_refusal_why(const char *d, const char *op, glow_strbuf *why);

/* importer/tensor-pb.c: a serialized TensorProto (the conformance suite's .pb files) */
int glow_tensor_pb_load(const char *path, glow_dtype *dt, int *rank, int64_t *dims, void **data, char **name);
int glow_tensor_pb_parse(const void *bytes, size_t size, const char *path, glow_dtype *dt, int *rank, int64_t *dims,
                         void **data, char **name);

/* importer/bind-input.c: spec is "<input name>,<tensor.pb>" */
int glow_bind_input(glow_graph *g, const char *spec);

/* passes/: int glow_pass_<name>(glow_graph *g, const glow_pass_options *o) */
typedef struct glow_plugins glow_plugins; /* plugin/plugin.h */
typedef struct glow_pass_options {
  int verbose;
  const char *dump_after; /* pass name or NULL */
  int conv_tile_blocks;   /* the target's float32 conv tiles: blocks of 16 output channels (codegen/target-machine.c) */
  int conv_winograd;      /* 3x3 convs by Winograd on planes of this many outputs and more; 0: none */
  const char **disabled;  /* -disable-pass names (checked by glow_check_disabled_passes) */
  int ndisabled;
  const glow_plugins *plugins; /* -load-pass libraries and the passes of theirs that run; NULL: none */
  const struct glow_quant_options *quant; /* -load-profile and its options (quant/quant.h); NULL: no quant stage */
} glow_pass_options;
/* passes/infer-fold.c: shapes for every value, constant subgraphs evaluated */
int glow_pass_infer_fold(glow_graph *g, const glow_pass_options *o);
/* passes/fold-batchnorm.c */
int glow_pass_fold_batchnorm(glow_graph *g, const glow_pass_options *o);
/* passes/pack-weights.c: constant int8 weights in the int8 kernels' layout */
int glow_pass_pack_weights(glow_graph *g, const glow_pass_options *o);
/* passes/fuse-epilogue.c: activations and residual adds into float32 convs (compiling only) */
int glow_pass_fuse_epilogue(glow_graph *g, const glow_pass_options *o);
/* passes/pack-conv-weights.c: constant float32 conv weights in the conv kernel's panels (compiling only) */
int glow_pass_pack_conv_weights(glow_graph *g, const glow_pass_options *o);
/* ops/nn-conv.c: for a float32 Conv that pack-conv-weights can pack, the blocks of
 * 16 output channels per panel (4, 2 or 1, at most max_blocks); 0 if it cannot */
int glow_conv_panel_blocks(const glow_graph *g, const glow_node *n, int max_blocks);
/* passes/winograd.c: float32 3x3 convs as ConvWinograd nodes (compiling only, where o->conv_winograd) */
int glow_pass_winograd(glow_graph *g, const glow_pass_options *o);
/* ops/nn-conv.c: for a float32 Conv that ConvWinograd can run, its blocks of 16 output channels
 * per panel (as glow_conv_panel_blocks) and its pads (top, left, bottom, right); 0 if it cannot */
int glow_conv_winograd_fit(const glow_graph *g, const glow_node *n, int max_blocks, int min_outputs, int64_t pads[4]);
/* passes/fuse-conv-pool.c: a packed float32 2-D Conv and the MaxPool after it as one
 * ConvMaxPool node (compiling only, where o->conv_winograd: the target's stacks hold the ring) */
int glow_pass_fuse_conv_pool(glow_graph *g, const glow_pass_options *o);
/* ops/nn-conv-winograd.c: U = G g G^T of M x C 3x3 filters w, per block of 16 * nb output
 * channels U[block][xi][c][16 * nb] (36 * M * C floats) */
void glow_winograd_weights(const float *w, int64_t M, int64_t C, int64_t nb, float *u);
/* Blocks of 16 columns packed B holds for n columns: ceil(n/16) rounded up to whole tiles. */
static inline int64_t glow_qmm_packed_blocks(int64_t n) {
  return ((n + 15) / 16 + GLOW_QMM_TILE_BLOCKS - 1) / GLOW_QMM_TILE_BLOCKS * GLOW_QMM_TILE_BLOCKS;
}
/* passes/dead-nodes.c */
int glow_pass_dead_nodes(glow_graph *g, const glow_pass_options *o);
/* passes/materialize-outputs.c */
int glow_pass_materialize_outputs(glow_graph *g, const glow_pass_options *o);
/* passes/pipeline.c: the registry, in the order the passes run. GRAPH passes run on every
 * import (the profiler's too); QUANT ones with a profile (o->quant); CODEGEN ones when compiling. */
typedef enum { GLOW_PASS_GRAPH, GLOW_PASS_QUANT, GLOW_PASS_CODEGEN } glow_pass_stage;
typedef struct glow_pass_info {
  const char *name;
  glow_pass_stage stage;
  int required; /* code generation needs it: -disable-pass refuses it */
  int (*run)(glow_graph *g, const glow_pass_options *o); /* NULL: where plugin passes run */
  const char *what;
} glow_pass_info;
extern const glow_pass_info glow_passes[];
extern const int glow_npasses;
int glow_run_passes(glow_graph *g, const glow_pass_options *o, glow_pass_stage stage);
/* 1 if -disable-pass names it. */
int glow_pass_disabled(const glow_pass_options *o, const char *name);
/* -1 after naming each -disable-pass that is unknown or required. */
int glow_check_disabled_passes(const glow_pass_options *o);
void glow_print_passes(FILE *f, const glow_plugins *plugins);
/* plugin/plugin-load.c: -load-pass=<lib> (each in order) and -pass=<name> (the passes
 * that run, in order; none: every pass the libraries register). NULL after errors. */
glow_plugins *glow_plugins_load(int nlibs, const char *const *libs, int npass, const char *const *pass);
void glow_plugins_free(glow_plugins *p);
/* One line per plugin pass that runs, as glow_print_passes writes them. */
void glow_print_plugin_passes(FILE *f, const glow_plugins *p);
/* plugin/plugin-run.c: the selected plugin passes on g, each checked after it. */
int glow_run_plugin_passes(glow_graph *g, const glow_pass_options *o);

/* interp/interp.c */
typedef struct glow_tensor { glow_dtype dt; int rank; int64_t dims[GLOW_MAX_RANK]; void *data; } glow_tensor;
/* Runs the whole graph: inputs in graph-input order; outputs allocated (free with free()). */
int glow_interp_run(const glow_graph *g, const glow_tensor *inputs, glow_tensor *outputs);
/* Sees one value's dense row-major data, valid only during the call. */
typedef void (*glow_interp_observer)(void *ctx, const glow_graph *g, int value_id, const void *data);
/* glow_interp_run that also calls cb for every observed value (see below) once
 * per run: the graph inputs in graph-input order, then each live node's outputs
 * right after the node ran, in node order. */
int glow_interp_run_observed(const glow_graph *g, const glow_tensor *inputs, glow_tensor *outputs,
                             glow_interp_observer cb, void *ctx);
/* 1 if value_id is observed when it is computed: a non-constant float value
 * (float, double, float16, bfloat16) with a known shape. */
int glow_interp_observes(const glow_graph *g, int value_id);
/* Evaluates one node whose inputs are all constants; its outputs become constants. */
int glow_interp_fold_node(glow_graph *g, int node_id);

/* plan/plan.c */
typedef struct glow_plan {
  uint64_t const_size, mutable_size, act_size, act_lower_bound;
  uint64_t *offset;    /* per value; meaningful per area */
  int *area;           /* per value: 0 none, 1 constant, 2 mutable, 3 activations */
  int *order;          /* schedule: live node ids */
  int norder;
} glow_plan;
int glow_plan_create(const glow_graph *g, glow_plan *p);
void glow_plan_free(glow_plan *p);

/* codegen/target-machine.c: what -target, -mcpu, -mattr and the ABI options ask for */
typedef struct glow_target_options {
  const char *triple, *cpu, *features;
  const char *float_abi; /* -float-abi=soft|softfp|hard (32-bit Arm), NULL: the triple's */
  int pic;   /* -relocation-model: 1 pic, 0 static, -1 the default (pic; static on bare metal) */
  int code_model;       /* -bundle-code-model: 0 the target's default, 1 small, 2 medium, 3 large */
  const char *abi;      /* -mabi (e.g. lp64d), NULL: the triple's */
} glow_target_options;

/* codegen/target-machine.c */
char *glow_default_triple(void); /* normalized host triple; free() it */
void glow_host_cpu(char **cpu, char **features); /* what -mcpu=native means here; free() both */
int glow_triple_is_host(const char *triple);      /* the same arch, OS and environment as the host's */
/* The blocks of 16 output channels this target machine's float32 conv tiles take at once
 * (target.h's conv_tile_blocks where its conv_tile_probe holds, else 1); -1 after
 * reporting a target machine that cannot be made (an unknown -mcpu, ...). */
int glow_target_conv_tile_blocks(const glow_target_options *o);
/* Where the target runs 3x3 convs by Winograd (glow_target.conv_winograd): the least outputs
 * of a plane that takes it, GLOW_WINOGRAD_MIN_OUTPUTS_FMA512 on the target's fma512_cpus; 0: none. */
int glow_target_winograd(const glow_target_options *o);
#define GLOW_WINOGRAD_MIN_OUTPUTS 196
#define GLOW_WINOGRAD_MIN_OUTPUTS_FMA512 400

/* codegen/codegen.c */
enum {
  GLOW_WEIGHTS_BIN = 1,      /* <name>.weights.bin */
  GLOW_WEIGHTS_TXT = 2,      /* <name>.weights.txt, a C initializer list */
  GLOW_WEIGHTS_EMBEDDED = 4, /* in <name>.o, section .rodata.glow.<name>, symbol <name>_constant_weights */
  GLOW_WEIGHTS_ZST = 8,      /* <name>.weights.zst; with EMBEDDED: packed in <name>.o, <name>_constant_weights_zst */
};
/* codegen/stack-usage.c: the most stack an entry point of the bundle uses, measured as the
 * object is made: every function's frame as LLVM's code generator laid it out, and its return
 * address, summed along the deepest path of the module's static call graph from each
 * exported function, plus GLOW_STACK_LIBRARY_BYTES for the C library and compiler routines
 * that path may call (memcpy, __aeabi_*). 128: the deepest chain of such routines in
 * arm-none-eabi's libgcc and newlib is 108 bytes (armv6-m's __aeabi_ldivmod; 48 on armv7e-m
 * and armv8-m), and they call nothing else. */
#define GLOW_STACK_LIBRARY_BYTES 128
typedef struct glow_stack_usage {
  int measured;     /* 0: not measured (a GPU bundle; or nothing asked) */
  int own_codegen;  /* measured on glowc's own code generator's object, not on -llvm-compiler's */
  uint64_t bytes;   /* the worst case, GLOW_STACK_LIBRARY_BYTES included */
  char entry[128];  /* the exported function whose path is deepest */
  char path[512];   /* that path, "entry > step > kernel" (shortened when long) */
  char unknown[256]; /* "" if bytes bounds the stack; else why it is only a lower bound */
} glow_stack_usage;

/* codegen/codegen.c */
typedef struct glow_bundle_options {
  const char *network_name;
  const char *entry_name;   /* defaults to network_name */
  int dynamic_api;          /* -bundle-api=dynamic */
  unsigned weights;         /* -weights=: GLOW_WEIGHTS_* bits (the driver fills in the default) */
  int zst_level;            /* -weights-compression-level: zstd level of .weights.zst */
  const void *packed;       /* embedded,zst: the packed weights to embed (the driver packs them first) */
  size_t packed_size;
  glow_target_options target;
  const char *host_triple;  /* -cuda-host: a GPU bundle's host (NULL: this machine's) */
  int num_threads;          /* -num-threads: steps with a _part kernel split this many ways (1: none) */
  int thread_min_work;      /* -num-threads-min-work: the least work (glow_step_work) per part for a step to split */
  int debug_info;           /* -g: DWARF in the object, a line table into <name>.g.txt (the step listing) */
  const char *listing_path; /* -g: where <name>.g.txt is written (the path recorded in the DWARF) */
  int instrument_ir;        /* -instrument-ir: glow_instrument_before/after around each step */
  int instrument_debug;     /* -instrument-debug: each step's outputs written to files at run time */
  const char *instrument_debug_dir;    /* -instrument-debug-dir (default "debug") */
  const char *instrument_debug_format; /* -instrument-debug-format: console|bin|txt|rawbin|rawtxt */
  const char *instrument_debug_only;   /* -instrument-debug-only: comma list of node kinds or names */
  int api_verbose;          /* -bundle-api-verbose: the header comment also lists the constant weights */
  int dump_llvm_ir;         /* -dump-llvm-ir: the optimized module's IR to stdout */
  int dump_llvm_asm;        /* -dump-llvm-asm: its assembly to stdout */
  char **asm_text;          /* -llvm-save-asm: set to the assembly (malloc'd), *asm_size its length */
  size_t *asm_size;
  const char *llvm_opt;     /* -llvm-opt: an external opt run on the bitcode before the object is made */
  const char *llvm_compiler;          /* -llvm-compiler: an external llc that makes the object */
  int nllvm_compiler_opts;
  const char *const *llvm_compiler_opts; /* -llvm-compiler-opt, in order */
  int verbose;
  /* -entry: a bundle of several entries (driver/compile-entries.c) */
  int nentries;                /* > 0: the header declares these entries (entry_name is not used) */
  const char *const *entries;
  const char *entries_note;    /* the header comment's lines on them */
  const char *extern_decls;    /* their steps' declarations of the caller's functions (glow_emit_extern_decls) */
  int module_only;             /* *obj is the optimized module's bitcode, to be linked (codegen/link-entries.c) */
  glow_stack_usage *stack;     /* set by the object's making (not with module_only); NULL: not measured */
} glow_bundle_options;
/* Emits the object file bytes into *obj (malloc'd). */
int glow_codegen(const glow_graph *g, const glow_plan *p, const glow_bundle_options *o, void **obj, size_t *obj_size);
/* codegen/link-entries.c (-entry): the entries' modules (glow_codegen's bitcode with module_only)
 * linked into one object, with the dynamic API's config of the union of their inputs and
 * outputs (u, laid out in the bundle's areas by up). @return 0, or -1 after an error. */
int glow_codegen_link(const glow_graph *u, const glow_plan *up, const glow_bundle_options *o, void *const *modules,
                      const size_t *sizes, int n, void **obj, size_t *obj_size);

/* codegen/debug-info.c: -g's listing, <name>.g.txt: a line per step, the lines the DWARF points at. */
void glow_emit_listing(const glow_graph *g, const glow_plan *p, const glow_bundle_options *o, glow_strbuf *out);
/* codegen/instrument-info.c: -instrument-ir's instrument-ir.info and -instrument-debug's
 * instrument-debug.info, as Glow writes them, and the callbacks' declarations for the header. */
void glow_emit_instrument_ir_info(const glow_graph *g, const glow_plan *p, glow_strbuf *out);
void glow_emit_instrument_debug_info(const glow_graph *g, const glow_plan *p, const glow_bundle_options *o,
                                     glow_strbuf *out);
int glow_instrument_debug_format_check(const char *format); /* -1 after naming the formats */
void glow_instrument_header(glow_strbuf *out);

/* codegen/emit-header.c */
int glow_emit_header(const glow_graph *g, const glow_plan *p, const glow_bundle_options *o, glow_strbuf *out);
/* Appends to *decls the declarations of the caller's functions that g's steps call (glow_kcall_extern)
 * and *decls does not hold yet. */
void glow_emit_extern_decls(glow_strbuf *decls, const glow_graph *g, const glow_plan *p);
/* codegen/emit-weights.c */
int glow_emit_weights_bin(const glow_graph *g, const glow_plan *p, void **data, size_t *size);
int glow_emit_weights_txt(const glow_graph *g, const glow_plan *p, glow_strbuf *out);
/* codegen/emit-weights-zst.c: the constant area packed (runtime/weights-zst-format.h) at zstd `level`.
 * @return 0, or -1 after an error. */
int glow_emit_weights_zst(const glow_graph *g, const glow_plan *p, int level, void **data, size_t *size);

#endif
