/* Which ONNX domain each op is taken from: ONNX's own ops from the default
 * domain ("" or "ai.onnx"), the com.microsoft (ONNX Runtime contrib) ops
 * glowc runs from that domain only, and no other op of it. */
#include <string.h>

#include "glowc.h"

static const char *const ms_ops[] = {"QLinearAdd", "QLinearAveragePool", "QLinearConcat", "QLinearGlobalAveragePool",
                                     "QLinearMul"};
enum { NMS = sizeof ms_ops / sizeof ms_ops[0] };

static int ms_op(const char *op) {
  for (int i = 0; i < NMS; i++)
    if (!strcmp(op, ms_ops[i]))
      return 1;
  return 0;
}

static int ms_domain(const char *d) { return d && !strcmp(d, "com.microsoft"); }

int glow_onnx_default_domain(const char *d) { return !d || !*d || !strcmp(d, "ai.onnx"); }

int glow_onnx_domain_ok(const char *d, const char *op) {
  return ms_op(op) ? ms_domain(d) : glow_onnx_default_domain(d);
}

void glow_onnx_domain_why(const char *d, const char *op, glow_strbuf *why) {
  if (ms_domain(d)) {
    glow_sb_printf(why, ": of com.microsoft, only ");
    for (int i = 0; i < NMS; i++)
      glow_sb_printf(why, "%s%s", i == 0 ? "" : i + 1 < NMS ? ", " : " and ", ms_ops[i]);
    glow_sb_printf(why, " are supported");
  } else if (ms_op(op)) {
    glow_sb_printf(why, ": it is a com.microsoft op");
  }
}
