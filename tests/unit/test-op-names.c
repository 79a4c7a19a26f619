/* The IR names an op from ir/ops.def (glow_op_name: dumps, node errors, the importers' lookup)
 * and each op's record under ops/ carries its own name: the two agree for every op. */
#include <stdio.h>
#include <string.h>

#include "glowc.h"

int main(void) {
  int failures = 0;
  for (int i = 0; i < GLOW_OP_COUNT; i++) {
    const char *ir = glow_op_name((glow_op)i), *rec = glow_op_get((glow_op)i)->onnx_name;
    if (strcmp(ir, rec)) {
      printf("FAIL op %d: ir/ops.def names it %s, its record under ops/ %s\n", i, ir, rec);
      failures++;
    }
    if (glow_op_from_onnx(rec) != (glow_op)i) {
      printf("FAIL op %d: glow_op_from_onnx(\"%s\") is %d\n", i, rec, (int)glow_op_from_onnx(rec));
      failures++;
    }
  }
  printf("%d ops, %d failures\n", GLOW_OP_COUNT, failures);
  return failures != 0;
}
