/* -assert-all-nodes-quantized: after the quantize pass, every node still
 * computing in floating point is an error, all named at once. Glow's quantizer
 * dies on the first node it would leave in float (FunctionQuantizer::canConvert):
 * one with a float input or output that has no range in the profile, or that
 * the backend does not run quantized. The nodes of kinds kept with
 * -keep-original-precision-for-nodes are left alone, as Glow never considers
 * them; so are the nodes that do no arithmetic: the QuantizeLinear and
 * DequantizeLinear at the edges of the int8 parts (Glow's conversions) and
 * those that only move or reshape values (a Flatten of a float value computes
 * nothing in float). */
#include <string.h>

#include "quant/quant.h"

static int is_float(glow_dtype dt) {
  return dt == GLOW_DT_F32 || dt == GLOW_DT_F16 || dt == GLOW_DT_BF16 || dt == GLOW_DT_F64;
}

/* Ops that copy, select or reshape elements, or read only shapes. */
static int moves_only(glow_op op) {
  static const char *const names[] = {"QuantizeLinear", "DequantizeLinear", "Reshape", "Flatten", "Squeeze",
                                      "Unsqueeze", "Transpose", "Identity", "Concat", "Split", "Slice", "Gather",
                                      "Expand", "Tile", "DepthToSpace", "SpaceToDepth", "Shape", "Size"};
  const char *name = glow_op_get(op)->onnx_name;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(name, names[i]))
      return 1;
  return 0;
}

/* A float value flows in or out. Constants do not count: the scales of the
 * int8 ops are float constants (Glow keeps them in the types instead). */
static int computes_in_float(const glow_graph *g, const glow_node *n) {
  for (int k = 0; k < n->nin; k++)
    if (n->in[k] >= 0 && g->vals[n->in[k]].kind != GLOW_VAL_CONST && is_float(g->vals[n->in[k]].dt))
      return 1;
  for (int k = 0; k < n->nout; k++)
    if (n->out[k] >= 0 && is_float(g->vals[n->out[k]].dt))
      return 1;
  return 0;
}

/* Whether op name appears in the comma list s. */
static int listed(const char *s, const char *name) {
  size_t len = strlen(name);
  while (s && *s) {
    size_t n = strcspn(s, ",");
    if (n == len && !strncmp(s, name, n))
      return 1;
    s += n + (s[n] == ',');
  }
  return 0;
}

int glow_quant_assert_all(const glow_graph *g, const glow_quant_options *o, const char *model) {
  glow_strbuf nodes = {0}, ops = {0};
  int count = 0;
  for (int i = 0; i < g->nnodes; i++) {
    const glow_node *n = &g->nodes[i];
    if (n->dead || moves_only(n->op) || glow_quant_kept(o, n->op) || !computes_in_float(g, n))
      continue;
    const char *op = glow_op_get(n->op)->onnx_name;
    const char *name = n->name && *n->name ? n->name : n->nout > 0 && n->out[0] >= 0 ? g->vals[n->out[0]].name : "";
    glow_sb_printf(&nodes, "%s'%s' (%s)", count ? ", " : "", name, op);
    if (!listed(ops.s, op))
      glow_sb_printf(&ops, "%s%s", ops.len ? "," : "", op);
    count++;
  }
  if (count)
    glow_error(model,
               "-assert-all-nodes-quantized: %d node%s left computing in float after quantization: %s; keep "
               "%s in float with -keep-original-precision-for-nodes=%s, or drop -assert-all-nodes-quantized",
               count, count == 1 ? " is" : "s are", nodes.s, count == 1 ? "it" : "them", ops.s);
  glow_sb_free(&nodes);
  glow_sb_free(&ops);
  return count ? -1 : 0;
}

int glow_pass_assert_quantized(glow_graph *g, const glow_pass_options *o) {
  const glow_quant_options *q = o->quant;
  return glow_graph_verify(g) || (q->assert_all && glow_quant_assert_all(g, q, q->model)) ? -1 : 0;
}
