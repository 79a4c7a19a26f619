/* TFLite CUSTOM operators: a TFLiteCustomOperator node (ops/custom-call.c),
 * which the bundle's caller computes through glow_tflite_custom_operator, as
 * Glow's bundles do. Its inputs and outputs are the model's tensors in the
 * model's layout (NHWC) and types, its outputs of the shapes the model
 * declares; its custom code and options (the raw FlexBuffer bytes, a uint8
 * constant the node names in glow.custom_options) go to the callback as the
 * model holds them. */
#include <string.h>

#include "importer/tflite.h"

/* Inputs and outputs together, as the node takes them. */
#define MAX_OPERANDS 64

/* Custom codes Glow's bundles compute themselves: a Glow program's callback does not expect them. */
static const char *const glow_computes[] = {"TFLite_Detection_PostProcess", "AudioSpectrogram", "Mfcc"};

int glow_tfl_custom(glow_tfl *c, const glow_tfl_op *op) {
  for (size_t i = 0; i < sizeof glow_computes / sizeof glow_computes[0]; i++)
    if (!strcmp(op->type, glow_computes[i]))
      return glow_tfl_err(c, op, "is TFLite's %s, which Glow's bundles compute themselves; glowc has no importer "
                          "for it, and does not pass it to glow_tflite_custom_operator, where a program written for "
                          "Glow would not expect it", op->type);
  if (op->nin + op->nout > MAX_OPERANDS)
    return glow_tfl_err(c, op, "has %d inputs and outputs; glowc passes a custom operator at most %d",
                        op->nin + op->nout, MAX_OPERANDS);
  if (!op->nout)
    return glow_tfl_err(c, op, "has no outputs: there is nothing for glowc to compute");
  int in[MAX_OPERANDS], out[MAX_OPERANDS];
  for (int k = 0; k < op->nin; k++) /* an omitted input (-1) is passed as NULL, of size 0 */
    if ((in[k] = op->in[k] < 0 ? -1 : glow_tfl_in(c, op, k, GLOW_TFL_NHWC)) < 0 && op->in[k] >= 0)
      return -1;
  int64_t types[MAX_OPERANDS], shapes[MAX_OPERANDS * (GLOW_MAX_RANK + 1)];
  int nshapes = 0;
  for (int k = 0; k < op->nout; k++) {
    const glow_tfl_tensor *t = glow_tfl_tensor_out(c, op, k);
    if (!t->dt)
      return glow_tfl_err(c, op, "output %d ('%s') has a type glowc does not compile (TensorType %d)", k, t->name,
                          t->type);
    types[k] = t->dt;
    shapes[nshapes++] = t->rank;
    for (int d = 0; d < t->rank; d++)
      shapes[nshapes++] = t->dims[d];
    out[k] = glow_tfl_out(c, op, k, GLOW_TFL_NHWC);
  }
  int64_t size = op->custom_opts_size;
  int opts = glow_tfl_const(c, op, "options", GLOW_DT_U8, 1, &size, op->custom_opts);
  if (opts < 0)
    return -1;
  int node = glow_tfl_node(c, op, GLOW_OP_TFLITE_CUSTOM, NULL, op->nin, in, op->nout, out);
  glow_tfl_attr_string(c, node, "glow.custom_code", op->type);
  glow_attr *a = glow_attr_slot(&c->g->nodes[node], "glow.custom_options");
  a->type = GLOW_ATTR_TENSOR;
  a->t_value = opts;
  glow_tfl_attr_ints(c, node, "glow.out_types", types, op->nout);
  glow_tfl_attr_ints(c, node, "glow.out_shapes", shapes, nshapes);
  return glow_tfl_infer(c, node);
}
