/* model-compiler / glowc: ONNX model in, bundle out (or, with -dump-profile, a profile). */
#include "driver/driver.h"

int main(int argc, char **argv) {
  glow_driver_options d;
  int rc = glow_driver_parse(GLOW_TOOL_COMPILER, argc, argv, &d);
  if (!rc && d.help)
    glow_driver_usage(GLOW_TOOL_COMPILER, stdout);
  else if (!rc && d.version)
    printf("glowc %s\n", GLOWC_VERSION);
  else if (!rc && d.print_passes)
    glow_print_passes(stdout, d.plugins);
  else if (!rc && d.print_cache_key) {
    char key[65];
    rc = glow_cache_key(&d, key);
    if (rc)
      glow_error(d.model, "cannot read an input of the compile (the model, a profile or a bound tensor)");
    else
      printf("%s\n", key);
  }
  else if (!rc && d.dump_profile && d.nentries) {
    glow_error("-entry", "not with -dump-profile: a profile is one model's; profile each model on its own");
    rc = -1;
  } else if (!rc && d.dump_profile)
    rc = glow_driver_profile(&d);
  else if (!rc)
    rc = glow_driver_compile(&d);
  glow_driver_options_free(&d);
  return rc ? 1 : 0;
}
