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
  const char *cache_dir;    /* -cache-dir or GLOWC_CACHE_DIR; NULL: none */
  const char *remote_cache; /* -remote-cache=http://host:port[/prefix]; NULL: none */
  char *owned_name, *owned_triple;
} glow_driver_options;

/* driver/options.c */
void glow_driver_usage(FILE *f);
int glow_driver_parse(int argc, char **argv, glow_driver_options *d);
void glow_driver_options_free(glow_driver_options *d);

/* driver/cache.c */
/* The entry's key (64 hex digits); -1 if an input cannot be read (the compile then reports it). */
int glow_cache_key(const glow_driver_options *d, char key[65]);
/* 1: local hit, 2: remote hit, 0: miss (a corrupted entry is a miss, and a local one is deleted). */
int glow_cache_fetch(const glow_driver_options *d, const char *key, glow_cache_entry *e);
/* Best effort: failures are warnings. */
void glow_cache_store(const glow_driver_options *d, const char *key, const glow_bundle_file *files, int n);

/* driver/compile.c */
int glow_driver_compile(const glow_driver_options *d);

#endif
