/* ExpandDepthwise: glowc's own node for a float32 1x1 Conv that widens the channels
 * (lowered as a matrix product) and the depthwise Conv that alone reads its output T,
 * run in bands of rows by kernel glow_k_expand_dw_f32 (targets/common/kernels/
 * conv-expand-dw.c, which says how). passes/expand-dw.c makes it of the two Convs when
 * compiling: inputs X, W1, B1 (the 1x1 conv's), W2, B2 and the residual (the depthwise
 * conv's); outputs Y and T, so that the planner gives T its place as before; the
 * depthwise conv's attributes (and epilogue, glow.epi*), the 1x1 conv's epilogue as
 * glow.expand_epi*. It is not read from models and has no reference semantics of its
 * own (the interpreter runs the Convs it was made of). Each half lowers as its Conv
 * would (glow_op_CONV's lowering of a view of it); the kernel takes both calls' tensors
 * and parameters. */
#include <string.h>

#include "ops/nn-util.h"

enum { IN_X, IN_W1, IN_B1, IN_W2, IN_B2, IN_R2, NIN };

static const char *const made = "ExpandDepthwise is glowc's own node, made when compiling two Convs; a model cannot use it";

/* The two Convs it was made of, as nodes over its values (no attributes of their own
 * but the epilogue for the 1x1 conv: strides, pads and group keep their defaults). */
static int views(const glow_graph *g, const glow_node *n, glow_node *e, int e_in[3], glow_attr e_attrs[3], glow_node *d,
                 int d_in[4]) {
  if (n->nin != NIN || n->nout != 2 || !glow_attr_find(n, "glow.expand_epi"))
    return glow_node_error(g, n, "%s", made);
  e_in[0] = n->in[IN_X], e_in[1] = n->in[IN_W1], e_in[2] = n->in[IN_B1];
  static const char *names[3] = {"glow.epi", "glow.epi_a", "glow.epi_b"}, *from[3] = {"glow.expand_epi",
                                                                                    "glow.expand_epi_a",
                                                                                    "glow.expand_epi_b"};
  for (int i = 0; i < 3; i++) {
    memset(&e_attrs[i], 0, sizeof e_attrs[i]);
    e_attrs[i].name = (char *)names[i];
    e_attrs[i].type = i ? GLOW_ATTR_FLOAT : GLOW_ATTR_INT;
    e_attrs[i].i = glow_attr_int(n, from[i], 0);
    e_attrs[i].f = i ? glow_attr_float(n, from[i], 0.0) : 0.0;
  }
  *e = (glow_node){n->name, GLOW_OP_CONV, 3, 1, e_in, n->out + 1, 3, e_attrs, 0};
  d_in[0] = n->out[1], d_in[1] = n->in[IN_W2], d_in[2] = n->in[IN_B2], d_in[3] = n->in[IN_R2];
  *d = (glow_node){n->name, GLOW_OP_CONV, d_in[3] >= 0 ? 4 : 3, 1, d_in, n->out, n->nattr, n->attrs, 0};
  return 0;
}

static int infer_expand_dw(glow_graph *g, glow_node *n) {
  glow_node e, d;
  int e_in[3], d_in[4];
  glow_attr e_attrs[3];
  if (views(g, n, &e, e_in, e_attrs, &d, d_in))
    return -1;
  const glow_op_info *conv = glow_op_get(GLOW_OP_CONV);
  return conv->infer(g, &e) || conv->infer(g, &d) ? -1 : 0;
}

static int eval_expand_dw(const glow_graph *g, const glow_node *n, void *const *outs, const void *const *ins) {
  (void)outs, (void)ins;
  return glow_node_error(g, n, "ExpandDepthwise is made when compiling only; the interpreter runs its Convs");
}

static int lower_expand_dw(const glow_graph *g, const glow_node *n, glow_kcall *kc) {
  glow_node e, d;
  int e_in[3], d_in[4];
  glow_attr e_attrs[3];
  if (views(g, n, &e, e_in, e_attrs, &d, d_in))
    return -1;
  const glow_op_info *conv = glow_op_get(GLOW_OP_CONV);
  glow_kcall ke, kd;
  memset(&ke, 0, sizeof ke);
  memset(&kd, 0, sizeof kd);
  int rc = conv->lower(g, &e, &ke) || conv->lower(g, &d, &kd) ? -1 : 0;
  if (!rc && (strcmp(ke.kernel, "glow_k_matmul_f32") || ke.ntensors != 5 ||
              (strcmp(kd.kernel, "glow_k_conv_plane_f32") && strcmp(kd.kernel, "glow_k_conv_dw16_f32")) ||
              kd.ntensors != 5 || ke.nparams != (int)GLOW_ABI_PARAMS(glow_abi_matmul)))
    rc = glow_node_error(g, n, "internal error: its Convs lower to %s and %s, not a matrix product and a depthwise conv",
                         ke.kernel, kd.kernel);
  if (!rc) { /* Y, X, W1, B1, R1, T, W2, B2, R2; the matrix product's parameters, then the conv's */
    glow_kcall_init(kc, "glow_k_expand_dw_f32");
    glow_kcall_tensor(kc, kd.tensors[0]);
    for (int i = 2; i >= 1; i--)
      glow_kcall_tensor(kc, ke.tensors[i]);
    glow_kcall_tensor(kc, ke.tensors[3]);
    glow_kcall_tensor(kc, ke.tensors[4]);
    glow_kcall_tensor(kc, ke.tensors[0]);
    for (int i = 2; i < 5; i++)
      glow_kcall_tensor(kc, kd.tensors[i]);
    glow_kcall_params(kc, ke.nparams, ke.params);
    glow_kcall_params(kc, kd.nparams, kd.params);
    while (kc->nparams < (int)(GLOW_ABI_PARAMS(glow_abi_matmul) + GLOW_ABI_PARAMS(glow_abi_conv)))
      glow_kcall_param(kc, 0); /* panel_blocks: none */
  }
  glow_kcall_free(&ke);
  glow_kcall_free(&kd);
  return rc;
}

const glow_op_info glow_op_CONV_EXPAND_DW = {"ExpandDepthwise", NIN, NIN, 2, 2, infer_expand_dw, eval_expand_dw,
                                             lower_expand_dw};
