/* The tools' options, declared once (options.def): each entry gives the parser
 * (options.c, option-hooks.c), the -help text (option-help.c) and the compile cache key
 * (cache.c) what they need, so an option cannot be half added. */
#ifndef GLOW_OPTION_TABLE_H
#define GLOW_OPTION_TABLE_H

#include <stddef.h>

#include "driver/driver.h"

/* Which tools take an option. */
enum {
  GLOW_FOR_COMPILER = 1,   /* model-compiler, glowc */
  GLOW_FOR_PROFILER = 2,   /* model-profiler */
  GLOW_FOR_CLASSIFIER = 4, /* image-classifier */
  GLOW_FOR_ALL = 7,
};

typedef enum {
  GLOW_OPT_FLAG,    /* int field set to 1 (0 if `negated`); Glow's -name=true|false|1|0 accepted */
  GLOW_OPT_STRING,  /* const char * field */
  GLOW_OPT_INT,     /* int field in [lo, hi] */
  GLOW_OPT_ENUM,    /* int field: the index of the value in `values` ("a|b|c") */
  GLOW_OPT_CUSTOM,  /* `parse` takes the value */
  GLOW_OPT_ALIAS,   /* another spelling of the option named by `values` */
  GLOW_OPT_REFUSED, /* a Glow option glowc does not take: `values` says why and what to use */
} glow_option_kind;

/* How an option enters the compile cache key. */
typedef enum {
  GLOW_KEY_NONE,   /* it does not change the bundle's bytes */
  GLOW_KEY_VALUE,  /* its field, as parsed and defaulted */
  GLOW_KEY_FILE,   /* the bytes of the file its string field names */
  GLOW_KEY_CUSTOM, /* cache.c's key function for it (`key`) */
} glow_option_key;

typedef struct glow_option glow_option;
struct glow_option {
  const char *name;
  unsigned tools;            /* GLOW_FOR_* */
  glow_option_kind kind;
  size_t field;              /* offsetof(glow_driver_options, ...) for FLAG, STRING, INT, ENUM */
  const char *values;        /* ENUM: "a|b|c"; ALIAS: the option; REFUSED: the reason */
  long lo, hi;               /* INT: the range */
  int (*parse)(glow_driver_options *d, const char *value); /* CUSTOM: 0, or -1 after an error */
  int takes_value;           /* CUSTOM: 1 if it has a value */
  glow_option_key key;
  const char *meta;          /* the value's form in -help, e.g. "<file>" */
  const char *help;          /* lines separated by '\n' */
  const char *example;       /* model-compiler: a value that changes the bundle, for the key test
                                (FLAG: "" tests -name, another value -name=<value>) */
  int negated;               /* FLAG: the field holds the option's negation (Glow's default-true
                                options, whose field is 0 unless -name=false) */
  int quant;                 /* a quantization option: only with -load-profile */
};

extern const glow_option glow_options[];
extern const int glow_noptions;

/* The entry named `name` that `tool` takes (aliases resolved), or NULL. */
const glow_option *glow_option_find(glow_driver_tool tool, const char *name);
/* Of the options `tool` takes, the name closest to `name` (for "did you mean"). */
const char *glow_option_closest(glow_driver_tool tool, const char *name);

/* driver/option-hooks.c: the CUSTOM options' parsers */
int glow_opt_model(glow_driver_options *d, const char *v);
int glow_opt_entry(glow_driver_options *d, const char *v);
int glow_opt_model_input(glow_driver_options *d, const char *v);
int glow_opt_define_symbol(glow_driver_options *d, const char *v);
int glow_opt_bind_input(glow_driver_options *d, const char *v);
int glow_opt_input_dataset(glow_driver_options *d, const char *v);
int glow_opt_backend(glow_driver_options *d, const char *v);
int glow_opt_weights(glow_driver_options *d, const char *v);
int glow_opt_target(glow_driver_options *d, const char *v);
int glow_opt_target_feature(glow_driver_options *d, const char *v);
int glow_opt_remote_cache(glow_driver_options *d, const char *v);        /* in remote-cache.c */
int glow_opt_remote_cache_header(glow_driver_options *d, const char *v); /* in remote-cache.c */
int glow_opt_remote_cache_mode(glow_driver_options *d, const char *v);   /* in remote-cache.c */
int glow_opt_cache_max_size(glow_driver_options *d, const char *v);
/* GLOWC_CACHE_MAX_SIZE unless -cache-max-size was given; either needs a cache folder. @return 0 or -1. */
int glow_cache_max_size_env(glow_driver_options *d);
int glow_opt_disable_pass(glow_driver_options *d, const char *v);
int glow_opt_load_pass(glow_driver_options *d, const char *v);
int glow_opt_pass(glow_driver_options *d, const char *v);
int glow_opt_keep_precision(glow_driver_options *d, const char *v);
int glow_opt_bundle_objects(glow_driver_options *d, const char *v);
int glow_opt_llvm_compiler_opt(glow_driver_options *d, const char *v);
int glow_opt_instrument_debug_format(glow_driver_options *d, const char *v);
int glow_opt_image_list(glow_driver_options *d, const char *v);
int glow_opt_expected_labels(glow_driver_options *d, const char *v);
int glow_opt_verbose(glow_driver_options *d, const char *v);
int glow_opt_tflite_bias_max_error(glow_driver_options *d, const char *v);
int glow_opt_ram_size(glow_driver_options *d, const char *v);
int glow_opt_flash_size(glow_driver_options *d, const char *v);

#endif
