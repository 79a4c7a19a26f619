/* The op table: each op's record (its group file's glow_op_<ID>), indexed by glow_op. */
#include "glowc.h"

static const glow_op_info *const op_table[] = {
#define GLOW_OP(id, onnx_name) &glow_op_##id,
#include "ir/ops.def"
#undef GLOW_OP
};
_Static_assert(sizeof op_table / sizeof op_table[0] == GLOW_OP_COUNT, "op table out of sync with ops.def");

const glow_op_info *glow_op_get(glow_op op) {
  GLOW_ASSERT(op >= 0 && op < GLOW_OP_COUNT);
  return op_table[op];
}
