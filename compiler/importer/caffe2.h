/* The Caffe2 importer's internals, shared by import-caffe2.c (nets, blobs,
 * inputs and outputs), caffe2-init.c (init_net fills), caffe2-args.c
 * (arguments) and caffe2-ops.c (predict_net ops as ONNX-semantics nodes). */
#ifndef GLOW_CAFFE2_H
#define GLOW_CAFFE2_H

#include "caffe2.pb-c.h"
#include "glowc.h"

/* Blob states besides a value id. */
enum { GLOW_C2_UNPRODUCED = -2 }; /* an op output glowc does not compute (a Dropout mask, ...) */

typedef struct glow_c2 {
  const char *predict_path, *init_path;
  const glow_import_options *o;
  glow_graph *g;
  glow_str_table blobs;  /* blob name -> the value its last writer so far made */
  glow_str_table writes; /* blob name -> writes still to come in predict_net */
  glow_str_table names;  /* every value name -> id, so made-up names never clash */
  int nq;               /* quantization parameters of Int8 blobs, by value id */
  double *qscale;
  int64_t *qzero;       /* INT64_MIN: none */
} glow_c2;

/* One op of a net, as it is being imported. */
typedef struct glow_c2_op {
  const Caffe2__OperatorDef *def;
  const char *type;
  char *name; /* the op's name, else its first output, else its type (as Glow names it) */
  const char *file;
} glow_c2_op;

/* import-caffe2.c */
glow_c2_op glow_c2_op_make(const char *file, const Caffe2__OperatorDef *def); /* free(op.name) */
/* "FILE:NAME (Type): error: ..."; returns -1. */
int glow_c2_err(const glow_c2_op *op, const char *fmt, ...);
/* The value blob k of the op reads; -1 after an error naming it. */
int glow_c2_in(glow_c2 *c, const glow_c2_op *op, int k);
/* A new value for output blob k (the blob names it when this is its last write). */
int glow_c2_out(glow_c2 *c, const glow_c2_op *op, int k);
/* Output k, if the op names one, is not computed: a later use is an error. */
void glow_c2_unproduced(glow_c2 *c, const glow_c2_op *op, int k);
/* A value of the op's own, named "<op name>/<what>". */
int glow_c2_tmp(glow_c2 *c, const glow_c2_op *op, const char *what);
/* A constant of the op's own (data copied). */
int glow_c2_const(glow_c2 *c, const glow_c2_op *op, const char *what, glow_dtype dt, int rank, const int64_t *dims,
                  const void *data);
/* A graph node for the op ("<op name>/<what>" unless what is NULL); returns its id. */
int glow_c2_node(glow_c2 *c, const glow_c2_op *op, glow_op kind, const char *what, int nin, const int *in, int nout,
                 const int *out);
/* Shapes of the node's outputs, now: Caffe2 arguments depend on input ranks. */
int glow_c2_infer(glow_c2 *c, int node);
/* Attributes of ONNX semantics on node `node`. */
void glow_c2_attr_int(glow_c2 *c, int node, const char *name, int64_t v);
void glow_c2_attr_float(glow_c2 *c, int node, const char *name, double v);
void glow_c2_attr_ints(glow_c2 *c, int node, const char *name, const int64_t *v, int n);
void glow_c2_attr_string(glow_c2 *c, int node, const char *name, const char *s);
/* Y_scale and Y_zero_point of an Int8 value: set by Int8 fills and ops, read by Int8Dequantize. */
void glow_c2_set_qparams(glow_c2 *c, int value, double scale, int64_t zero_point);
int glow_c2_qparams(const glow_c2 *c, int value, double *scale, int64_t *zero_point); /* -1 if unknown */

/* caffe2-args.c */
const Caffe2__Argument *glow_c2_arg(const glow_c2_op *op, const char *name);
/* The argument's value, or dflt when absent; -1 after an error when it has another type. */
int glow_c2_arg_int(const glow_c2_op *op, const char *name, int64_t dflt, int64_t *v);
int glow_c2_arg_float(const glow_c2_op *op, const char *name, double dflt, double *v);
/* A list into v[cap]: its count, -2 when absent, -1 after an error. */
int glow_c2_arg_ints(const glow_c2_op *op, const char *name, int64_t *v, int cap);
/* 1 if string argument `name` is `s`, 0 if it is absent or another string. */
int glow_c2_arg_is(const glow_c2_op *op, const char *name, const char *s);
/* `order` is NCHW (or absent); -1 after an error saying NHWC is not supported. */
int glow_c2_check_nchw(const glow_c2_op *op);
/* Sliding-window arguments of Conv and pooling ops, for nsp spatial axes. */
typedef struct glow_c2_window {
  int nsp;
  int has_kernel; /* kernel, kernel_h/_w or kernels given */
  int64_t kernel[GLOW_MAX_RANK], stride[GLOW_MAX_RANK], dilation[GLOW_MAX_RANK], pads[2 * GLOW_MAX_RANK];
  int same;      /* legacy_pad SAME: ONNX auto_pad SAME_UPPER */
  int ceil_mode; /* legacy_pad CAFFE_LEGACY_POOLING */
} glow_c2_window;
int glow_c2_window_args(const glow_c2_op *op, int nsp, int pooling, glow_c2_window *w);

/* caffe2-init.c: init_net's fill ops become constants (blobs defined). */
int glow_c2_init_net(glow_c2 *c, const Caffe2__NetDef *init);

/* caffe2-ops.c */
typedef struct glow_c2_op_info {
  const char *type;
  const char *onnx; /* for ops that become one ONNX op of the same meaning */
  int min_in, max_in, min_out, max_out;
  int (*emit)(glow_c2 *c, const glow_c2_op *op);
} glow_c2_op_info;
const glow_c2_op_info *glow_c2_op_find(const char *type); /* NULL if unsupported */
/* "Conv, Relu, ..." for messages. */
void glow_c2_op_list(glow_strbuf *b);

#endif
