/* TFLite CUSTOM operators glowc has no importer for. */
#include "importer/tflite.h"

int glow_tfl_custom(glow_tfl *c, const glow_tfl_op *op) {
  return glow_tfl_err(c, op, "is a custom operator, which glowc does not run yet");
}
