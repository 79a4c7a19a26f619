/* The TFLite importer's internals, shared by import-tflite.c (the model: buffers,
 * tensors, inputs, outputs, the op check), tflite-values.c (tensors as graph
 * values, in either layout), and one file per family of operators
 * (tflite-nn.c, tflite-math.c, tflite-tensor.c, tflite-quant.c, ...), each with
 * a table of the builtin operators it imports. tflite.fbs is the schema: the
 * field numbers used here are its field indices.
 *
 * Layout: TFLite is NHWC. A 4-D tensor's value exists in the model's layout
 * (GLOW_TFL_NHWC, named as the tensor) and, once an op needs it, in NCHW
 * (GLOW_TFL_NCHW, "<name>/nchw"), made by one Transpose. Ops that glowc's
 * kernels run in NCHW (conv, pool, resize, ...) read and write NCHW; elementwise
 * ops and ops with an axis follow their input's layout; the rest read NHWC. So a
 * chain of convolutions is transposed only where the model starts and ends. */
#ifndef GLOW_TFLITE_H
#define GLOW_TFLITE_H

#include "glowc.h"
#include "importer/flatbuf.h"

/* TensorType values of the schema. */
enum {
  GLOW_TFL_FLOAT32 = 0,
  GLOW_TFL_FLOAT16 = 1,
  GLOW_TFL_INT32 = 2,
  GLOW_TFL_UINT8 = 3,
  GLOW_TFL_INT64 = 4,
  GLOW_TFL_BOOL = 6,
  GLOW_TFL_INT16 = 7,
  GLOW_TFL_INT8 = 9,
};

/* ActivationFunctionType values of the schema. */
enum { GLOW_TFL_ACT_NONE = 0, GLOW_TFL_ACT_RELU = 1, GLOW_TFL_ACT_RELU_N1_TO_1 = 2, GLOW_TFL_ACT_RELU6 = 3,
       GLOW_TFL_ACT_TANH = 4, GLOW_TFL_ACT_SIGN_BIT = 5 };

/* Padding values of the schema. */
enum { GLOW_TFL_PAD_SAME = 0, GLOW_TFL_PAD_VALID = 1 };

enum { GLOW_TFL_NHWC = 0, GLOW_TFL_NCHW = 1 };

typedef struct glow_tfl_tensor {
  const char *name; /* in the file's bytes; "tensor<i>" names are made for unnamed ones */
  int type;         /* TensorType */
  glow_dtype dt;
  int rank;
  int64_t dims[GLOW_MAX_RANK];
  const uint8_t *data; /* constant bytes (NULL: none), data_size of them, in the file */
  size_t data_size;
  int nq;           /* quantization: scale[nq], zero[nq] along qdim (nq 0: none) */
  float *scale;
  int64_t *zero;
  int qdim;
  int val[2];       /* its value in each layout, -1 until made */
  int qval[2];      /* constants of its scale and zero point, -1 until made */
  int producer;     /* the operator that writes it, -1 for none */
} glow_tfl_tensor;

typedef struct glow_tfl glow_tfl;

/* One operator of the subgraph, as it is imported. */
typedef struct glow_tfl_op {
  int index;          /* in the subgraph's operators */
  int64_t code;       /* BuiltinOperator */
  const char *type;   /* its name ("CONV_2D"), or the custom code of a CUSTOM op */
  int version;
  int nin, nout;
  int *in, *out;      /* tensor indices; -1 for an omitted optional input */
  glow_fb_table opts; /* builtin_options (opts.pos 0: none) */
  int64_t opts_type;  /* its BuiltinOptions union number */
  const uint8_t *custom_opts;
  uint32_t custom_opts_size;
} glow_tfl_op;

typedef struct glow_tfl_op_info {
  int64_t code;       /* BuiltinOperator; -1 ends a table */
  int min_in, max_in, min_out, max_out;
  int (*emit)(glow_tfl *c, const glow_tfl_op *op);
} glow_tfl_op_info;

struct glow_tfl {
  const char *path;
  const glow_import_options *o;
  glow_graph *g;
  glow_fb fb;
  int ntensors;
  glow_tfl_tensor *t;
  glow_str_table names; /* every value name -> id, so made-up names never clash */
  uint64_t const_bytes; /* constant bytes copied so far, against GLOW_TFL_MAX_CONST_BYTES */
};

/* Hostile-input limits: tensors and operators of a subgraph, the constant bytes an import
 * may copy (buffers can be shared by tensors; also at most 4 times the file and 64 MiB),
 * and the elements of a tensor, declared or computed (so that no size overflows int64). */
#define GLOW_TFL_MAX_TENSORS (1 << 20)
#define GLOW_TFL_MAX_CONST_BYTES (8ull << 30)
#define GLOW_TFL_MAX_ELEMS ((int64_t)1 << 36)

/* import-tflite.c */
/* "FILE: operator N (TYPE, output 'NAME'): message"; returns -1. */
int glow_tfl_err(const glow_tfl *c, const glow_tfl_op *op, const char *fmt, ...);

/* tflite-values.c */
/* The value of input k in layout `layout` (NCHW only for 4-D tensors; for constants a
 * transposed copy); -1 after an error naming it (an omitted input, an undefined tensor). */
int glow_tfl_in(glow_tfl *c, const glow_tfl_op *op, int k, int layout);
/* Input k transposed by perm: for a constant a transposed copy named "<output>/<what>". */
int glow_tfl_in_perm(glow_tfl *c, const glow_tfl_op *op, int k, const int64_t *perm, const char *what);
/* The layout input k's value was made in first (a constant or graph input: NHWC). */
int glow_tfl_home(const glow_tfl *c, const glow_tfl_op *op, int k);
/* The layout an elementwise op runs in: NCHW when its output is 4-D, an input was made
 * in NCHW and every input that is not a constant is 4-D; else NHWC. */
int glow_tfl_follow(const glow_tfl *c, const glow_tfl_op *op);
/* Convolution and pooling windows: options, TF's SAME/VALID padding as pads[4] (ONNX
 * order: top, left, bottom, right) for input size in[2] (-1 after an error), attributes. */
typedef struct glow_tfl_window {
  int64_t padding, stride[2], dilation[2], kernel[2], act;
} glow_tfl_window;
void glow_tfl_conv_window(const glow_tfl_op *op, int depthwise, glow_tfl_window *w); /* kernel left 0 */
void glow_tfl_pool_window(const glow_tfl_op *op, glow_tfl_window *w);
int glow_tfl_window_pads(glow_tfl *c, const glow_tfl_op *op, const glow_tfl_window *w, const int64_t *in,
                         int64_t *pads);
void glow_tfl_window_attrs(glow_tfl *c, int node, const glow_tfl_window *w, const int64_t *pads, int dilations);
/* 4-D input k (`what` names it), else -1 after an error. */
int glow_tfl_need_4d(glow_tfl *c, const glow_tfl_op *op, int k, const char *what);
/* A CONV_2D's (OHWI) or DEPTHWISE_CONV_2D's (1, H, W, C*M) filter, input 1, as ONNX's OIHW and
 * its group count (input channels over the filter's, or C); -1 after an error naming the shapes. */
int glow_tfl_conv_filter(glow_tfl *c, const glow_tfl_op *op, int depthwise, int64_t *group);
/* A FULLY_CONNECTED's input 0 reshaped to rows of its weights' width (N, K), after checking the
 * weights (2-D, not shuffled); -1 after an error naming what is wrong. */
int glow_tfl_fc_rows(glow_tfl *c, const glow_tfl_op *op);
/* Input k for an op running in `layout` that broadcasts: a lower-rank constant becomes
 * 4-D (ones in front, numpy's rule) before it goes NCHW. */
int glow_tfl_in_bcast(glow_tfl *c, const glow_tfl_op *op, int k, int layout);
/* A new value for output k, in `layout`; its shape comes from the node that writes it. */
int glow_tfl_out(glow_tfl *c, const glow_tfl_op *op, int k, int layout);
/* A value of the op's own, named "<output 0's name>/<what>". */
int glow_tfl_tmp(glow_tfl *c, const glow_tfl_op *op, const char *what);
/* A constant of the op's own (data copied). */
int glow_tfl_const(glow_tfl *c, const glow_tfl_op *op, const char *what, glow_dtype dt, int rank,
                   const int64_t *dims, const void *data);
int glow_tfl_const_ints(glow_tfl *c, const glow_tfl_op *op, const char *what, int n, const int64_t *v);
/* A node (named "<output 0's name>/<what>", or the output's name when what is NULL);
 * returns its id. Set its attributes, then glow_tfl_infer() it. */
int glow_tfl_node(glow_tfl *c, const glow_tfl_op *op, glow_op kind, const char *what, int nin, const int *in,
                  int nout, const int *out);
/* The shapes of the node's outputs, now; -1 after an error naming the node. */
int glow_tfl_infer(glow_tfl *c, int node);
/* ONNX-semantics attributes on node `node`. */
void glow_tfl_attr_int(glow_tfl *c, int node, const char *name, int64_t v);
void glow_tfl_attr_float(glow_tfl *c, int node, const char *name, double v);
void glow_tfl_attr_ints(glow_tfl *c, int node, const char *name, const int64_t *v, int n);
void glow_tfl_attr_string(glow_tfl *c, int node, const char *name, const char *s);
/* The tensor of input k (NULL for an omitted one). */
const glow_tfl_tensor *glow_tfl_tensor_in(const glow_tfl *c, const glow_tfl_op *op, int k);
const glow_tfl_tensor *glow_tfl_tensor_out(const glow_tfl *c, const glow_tfl_op *op, int k);
/* Input k's constant integer contents into v[cap]: the count, or -1 after an error
 * saying input k must be a constant. */
int glow_tfl_in_ints(glow_tfl *c, const glow_tfl_op *op, int k, int64_t *v, int cap);
/* A rank-4 axis of the model's layout in `layout`. */
int glow_tfl_axis(int axis, int rank, int layout);
/* Fused activations: the value a node writes is output k itself when `act` is NONE, else
 * a temporary (glow_tfl_out_pre); glow_tfl_activation() then computes output k from it
 * (nothing for NONE). 0, or -1 after an error naming an activation glowc lacks. */
int glow_tfl_out_pre(glow_tfl *c, const glow_tfl_op *op, int k, int layout, int64_t act);
int glow_tfl_activation(glow_tfl *c, const glow_tfl_op *op, int pre, int64_t act, int k, int layout);

/* tflite-custom.c: a CUSTOM operator glowc has no importer for, run by the bundle's
 * caller through glow_tflite_custom_operator() (Glow's callback); -1 after an error. */
int glow_tfl_custom(glow_tfl *c, const glow_tfl_op *op);

/* tflite-op-names.c */
const char *glow_tfl_builtin_name(int64_t code); /* NULL for an unknown code */

/* tflite-quant.c: what the int8 importers (tflite-q*.c) share. Quantized tensors keep
 * TFLite's int8 (or uint8, or int16) type; scales and zero points are constant inputs of
 * ONNX's QLinear ops. */
/* 1 if tensor t is quantized (a scale, and int8, uint8 or int16). */
int glow_tfl_is_q(const glow_tfl_tensor *t);
/* Scalar constants of tensor ti's one scale and zero point, made once; -1 after an error. */
int glow_tfl_qparams(glow_tfl *c, const glow_tfl_op *op, int ti, int *scale, int *zero);
/* Weights (input k) quantized per tensor or per channel along `qdim` into n channels:
 * constants of the scales and zero points; -1 after an error. */
int glow_tfl_qweights(glow_tfl *c, const glow_tfl_op *op, int k, int qdim, int64_t n, int *scale, int *zero);
/* The int32 bias (input k, -1 when omitted) at input scale x weight scale, checked as Glow's
 * -tflite-bias-scale-check-* do; *bias -1 when none; -1 after an error. */
int glow_tfl_qbias(glow_tfl *c, const glow_tfl_op *op, int k, int w, int64_t n, int *bias);
/* TFLite's fused activation on quantized output k, a clamp in the quantized domain
 * (none where saturation is the clamp): as glow_tfl_out_pre and glow_tfl_activation. */
int glow_tfl_qout_pre(glow_tfl *c, const glow_tfl_op *op, int k, int layout, int64_t act);
int glow_tfl_qactivation(glow_tfl *c, const glow_tfl_op *op, int pre, int64_t act, int k, int layout);
/* Quantized uint8 tensors as int8 (value - 128, zero point - 128; Glow's -tflite-uint8-to-int8),
 * unless -tflite-uint8-to-int8=false; before any operator is imported. */
int glow_tfl_uint8_to_int8(glow_tfl *c);
/* tflite-qnn.c and tflite-qmath.c: importers of operators on quantized tensors, listed in
 * glow_tfl_ops_int8 (tflite-quant.c). */
int glow_tfl_q_conv(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_depthwise(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_fc(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_avgpool(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_maxpool(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_mean(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_add(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_sub(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_mul(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_concat(glow_tfl *c, const glow_tfl_op *op);
int glow_tfl_q_pad(glow_tfl *c, const glow_tfl_op *op);
/* A unary operator as a 256-entry table of the output's values (Gather), or a clamp. */
int glow_tfl_q_unary(glow_tfl *c, const glow_tfl_op *op);
/* tflite-qisland.c: the float importer between DequantizeLinear and QuantizeLinear. */
int glow_tfl_q_island(glow_tfl *c, const glow_tfl_op *op);

/* One table per family of operators, each ended by code -1. */
extern const glow_tfl_op_info glow_tfl_ops_nn[];
extern const glow_tfl_op_info glow_tfl_ops_math[];
extern const glow_tfl_op_info glow_tfl_ops_unary[];
extern const glow_tfl_op_info glow_tfl_ops_tensor[];
extern const glow_tfl_op_info glow_tfl_ops_slice[];
extern const glow_tfl_op_info glow_tfl_ops_quant[];
extern const glow_tfl_op_info glow_tfl_ops_reduce[];
extern const glow_tfl_op_info glow_tfl_ops_spatial[];
/* Importers of operators on int8 or uint8 tensors (input 0 quantized), found first for them. */
extern const glow_tfl_op_info glow_tfl_ops_int8[];
/* tflite-ops.c: the importer of builtin operator `code`, NULL if none; CUSTOM is separate. */
const glow_tfl_op_info *glow_tfl_op_find(int64_t code);
/* The importer for this operator: an int8 one when its input 0 is quantized (or is a constant
 * and output 0 is quantized) and one exists. */
const glow_tfl_op_info *glow_tfl_op_for(const glow_tfl *c, const glow_tfl_op *op);
/* "ABS, ADD, ..." for messages, and what becomes of custom operators (custom: they are imported). */
void glow_tfl_op_list(glow_strbuf *b, int custom);

#endif
