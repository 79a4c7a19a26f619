/* Which importer takes a TFLite operator: the tables of the operator families,
 * with the int8 table first for operators on quantized tensors. */
#include <string.h>

#include "importer/tflite.h"

static const glow_tfl_op_info *const tables[] = {glow_tfl_ops_nn, glow_tfl_ops_math, glow_tfl_ops_unary,
                                                 glow_tfl_ops_tensor, glow_tfl_ops_slice, glow_tfl_ops_quant,
                                                 glow_tfl_ops_reduce, glow_tfl_ops_spatial};

static const glow_tfl_op_info *in_table(const glow_tfl_op_info *t, int64_t code) {
  for (; t->code >= 0; t++)
    if (t->code == code)
      return t;
  return NULL;
}

const glow_tfl_op_info *glow_tfl_op_find(int64_t code) {
  for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
    const glow_tfl_op_info *info = in_table(tables[i], code);
    if (info)
      return info;
  }
  return in_table(glow_tfl_ops_int8, code);
}

/* An operator is quantized when its input 0 is, or when input 0 is a constant and output 0
 * is quantized (TRANSPOSE_CONV reads the output's shape first); a float op reading int8
 * weights (a hybrid model) is not, nor one computing a quantized output from float. */
const glow_tfl_op_info *glow_tfl_op_for(const glow_tfl *c, const glow_tfl_op *op) {
  const glow_tfl_op_info *q = in_table(glow_tfl_ops_int8, op->code);
  const glow_tfl_tensor *x = glow_tfl_tensor_in(c, op, 0);
  if (q && (glow_tfl_is_q(x) || (x && x->data && glow_tfl_is_q(glow_tfl_tensor_out(c, op, 0)))))
    return q;
  const glow_tfl_op_info *info = NULL;
  for (size_t i = 0; i < sizeof tables / sizeof tables[0] && !info; i++)
    info = in_table(tables[i], op->code);
  return info ? info : q;
}

void glow_tfl_op_list(glow_strbuf *b, int custom) {
  int n = 0;
  for (int64_t code = 0; glow_tfl_builtin_name(code) || code < 256; code++)
    if (glow_tfl_op_find(code))
      glow_sb_printf(b, "%s%s", n++ ? ", " : "", glow_tfl_builtin_name(code));
  if (custom)
    glow_sb_printf(b, ", and custom operators (run by the bundle's caller through glow_tflite_custom_operator)");
  else
    glow_sb_printf(b, "; custom operators only with -tflite-enable-custom-operator (the default)");
}
