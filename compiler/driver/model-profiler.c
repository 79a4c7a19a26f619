/* model-profiler: ONNX model and calibration samples in, quantization profile out. */
#include "driver/driver.h"

int main(int argc, char **argv) {
  glow_driver_options d;
  int rc = glow_driver_parse(GLOW_TOOL_PROFILER, argc, argv, &d);
  if (!rc && d.help)
    glow_driver_usage(GLOW_TOOL_PROFILER, stdout);
  else if (!rc && d.version)
    printf("glowc %s\n", GLOWC_VERSION);
  else if (!rc)
    rc = glow_driver_profile(&d);
  glow_driver_options_free(&d);
  return rc ? 1 : 0;
}
