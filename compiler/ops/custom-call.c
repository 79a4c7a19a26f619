/* TFLiteCustomOperator: a TFLite CUSTOM operator, which the bundle's caller
 * computes. The TFLite importer (importer/tflite-custom.c) makes it with the
 * operator's custom code, its raw options (FlexBuffer bytes, passed on unread)
 * and the types and shapes the model declares for its outputs; the bundle
 * calls glow_tflite_custom_operator, as Glow's bundles do, with the inputs'
 * and outputs' addresses in its memory areas and their sizes. There is no
 * reference: the interpreter cannot run it, and nothing folds it. */
#include <string.h>

#include "ops/op-util.h"

/* Inputs and outputs together: what one kernel call holds. */
#define MAX_TENSORS 64
_Static_assert(sizeof((glow_kcall *)0)->tensors / sizeof(int) == MAX_TENSORS, "glow_kcall's tensors changed");

/* The declaration the bundle header carries when the bundle calls it. */
static const char decl[] =
    "// TFLite custom operators: the bundle calls this for each CUSTOM operator of the\n"
    "// model; the program defines it (with C linkage). type: the operator's custom code;\n"
    "// optsAddr, optsSize: its custom options as the model holds them (FlexBuffer bytes);\n"
    "// opInp, opOut: its input and output counts; opAddr and opSize: the addresses and\n"
    "// sizes in bytes of its inputs, then of its outputs (opInp + opOut of each), in the\n"
    "// bundle's memory areas. It computes the outputs from the inputs.\n"
    "void glow_tflite_custom_operator(const char *type, const uint8_t *optsAddr, int optsSize, int opInp, "
    "int opOut, uint8_t **opAddr, int *opSize);\n\n";

/* The importer's attributes, read and checked. */
typedef struct {
  const char *code;
  const glow_value *opts; /* a uint8 constant of one dimension */
  const int64_t *types, *shapes;
  int ntypes, nshapes;
} custom_attrs;

static int read_attrs(const glow_graph *g, const glow_node *n, custom_attrs *a) {
  const glow_attr *o = glow_attr_find(n, "glow.custom_options");
  a->code = glow_attr_string(n, "glow.custom_code", NULL);
  a->opts = o && o->type == GLOW_ATTR_TENSOR && o->t_value >= 0 ? &g->vals[o->t_value] : NULL;
  a->ntypes = glow_attr_ints(n, "glow.out_types", &a->types);
  a->nshapes = glow_attr_ints(n, "glow.out_shapes", &a->shapes);
  if (!a->code || !a->opts || a->ntypes < 0 || a->nshapes < 0)
    return glow_node_error(g, n, "is made by the TFLite importer for a CUSTOM operator (with its code, options and "
                           "output shapes); it is not an ONNX op");
  if (a->opts->kind != GLOW_VAL_CONST || a->opts->dt != GLOW_DT_U8 || a->opts->rank != 1 ||
      a->opts->dims[0] > INT32_MAX)
    return glow_node_error(g, n, "glow.custom_options must be a uint8 constant of one dimension (under 2 GiB)");
  return 0;
}

static int infer_custom(glow_graph *g, glow_node *n) {
  custom_attrs a;
  if (read_attrs(g, n, &a))
    return -1;
  if (n->nin + n->nout > MAX_TENSORS)
    return glow_node_error(g, n, "has %d inputs and outputs; a custom operator has at most %d", n->nin + n->nout,
                           MAX_TENSORS);
  if (a.ntypes != n->nout)
    return glow_node_error(g, n, "has %d outputs but types for %d", n->nout, a.ntypes);
  int at = 0;
  for (int k = 0; k < n->nout; k++) {
    int64_t rank = at < a.nshapes ? a.shapes[at] : -1;
    if (rank < 0 || rank > GLOW_MAX_RANK || at + 1 + rank > a.nshapes)
      return glow_node_error(g, n, "the shape of output %d is missing from glow.out_shapes", k);
    int64_t t = a.types[k];
    if (t <= GLOW_DT_UNDEF || t >= GLOW_DT_COUNT || t == GLOW_DT_STRING || !glow_dtype_size((glow_dtype)t))
      return glow_node_error(g, n, "output %d has element type %lld, which glowc does not compile", k, (long long)t);
    glow_dtype dt = (glow_dtype)t;
    if (n->out[k] >= 0)
      glow_value_set_shape(glow_out(g, n, k), dt, (int)rank, a.shapes + at + 1);
    at += 1 + (int)rank;
  }
  return 0;
}

/* glow_tflite_custom_operator(type, optsAddr, optsSize, opInp, opOut, opAddr, opSize). */
static int lower_custom(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  custom_attrs a;
  if (read_attrs(g, n, &a))
    return -1;
  glow_kcall_extern(kc, "glow_tflite_custom_operator", decl);
  for (int k = 0; k < n->nin; k++)
    glow_kcall_tensor(kc, n->in[k]);
  for (int k = 0; k < n->nout; k++)
    glow_kcall_tensor(kc, n->out[k]);
  glow_kcall_arg_bytes(kc, GLOW_KARG_STRING, a.code, strlen(a.code));
  glow_kcall_arg_bytes(kc, GLOW_KARG_BYTES, a.opts->data, (size_t)a.opts->dims[0]);
  glow_kcall_arg_int(kc, a.opts->dims[0]);
  glow_kcall_arg_int(kc, n->nin);
  glow_kcall_arg_int(kc, n->nout);
  glow_kcall_arg_tensors(kc, GLOW_KARG_ADDRS, 0, n->nin + n->nout);
  glow_kcall_arg_tensors(kc, GLOW_KARG_SIZES, 0, n->nin + n->nout);
  return 0;
}

const glow_op_info glow_op_TFLITE_CUSTOM = {"TFLiteCustomOperator", 0, 63, 1, 63, infer_custom, NULL, lower_custom};
