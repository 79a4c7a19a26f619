/* The model-compiler / glowc front end. */
#ifndef GLOW_DRIVER_H
#define GLOW_DRIVER_H

#include "glowc.h"

typedef struct glow_driver_options {
  const char *model, *out_dir, *dot_file;
  int verbose, help, version;
  glow_import_options import;
  glow_pass_options passes;
  glow_bundle_options bundle;
  int nbind;
  const char **bind; /* -bind-input=<name>,<tensor.pb> */
  char *owned_name, *owned_triple;
} glow_driver_options;

/* driver/options.c */
void glow_driver_usage(FILE *f);
int glow_driver_parse(int argc, char **argv, glow_driver_options *d);
void glow_driver_options_free(glow_driver_options *d);

/* driver/compile.c */
int glow_driver_compile(const glow_driver_options *d);

#endif
