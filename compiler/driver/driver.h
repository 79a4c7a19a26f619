/* The tools' front ends: model-compiler (glowc), model-profiler and image-classifier. */
#ifndef GLOW_DRIVER_H
#define GLOW_DRIVER_H

#include "glowc.h"
#include "quant/quant.h"
#include "util/cache-entry.h"
#include "util/http-curl.h"
#include "util/npy.h"
#include "util/size.h"

/* driver/options.c */
typedef enum { GLOW_TOOL_COMPILER, GLOW_TOOL_PROFILER, GLOW_TOOL_CLASSIFIER } glow_driver_tool;

typedef struct glow_driver_options {
  const char *model, *out_dir, *dot_file;
  const char *init_net; /* a second -model: Glow's -model=predict_net.pb -model=init_net.pb */
  int nentries;
  const char **entries; /* -entry=<entry name>,<model>: more entries of the bundle, in order */
  int verbose, help, version, print_passes;
  int print_cache_key;       /* -print-cache-key: the key, then exit */
  int dump_graph, dump_ir;   /* Glow's -dump-graph (the graph as text) and -dump-ir (the schedule), to stdout */
  const char *dot_before;    /* -dump-graph-DAG-before-compile=<file.dot> */
  int save_asm;              /* -llvm-save-asm: <name>.s beside the object */
  int assert_quantized;      /* -assert-all-nodes-quantized */
  int num_histogram_bins;    /* -num-histogram-bins (profiles) */
  int nbundle_objects;
  const char **bundle_objects; /* -bundle-objects: archived with the bundle object */
  int nllvm_opts;
  const char **llvm_opts;    /* -llvm-compiler-opt, in order */
  const char *float_abi_glow; /* -float-abi as given (Glow's default|soft|hard, glowc's softfp|none) */
  const char *no_lower_kinds; /* -do-not-lower-nodes-for-profiling (nothing to do: glowc never lowers) */
  const char *march;         /* -march: Glow's architecture name (arm, thumb, aarch64, x86-64, riscv64) */
  uint64_t ram_size, flash_size; /* -ram-size, -flash-size: the board's memory for the bundle (0: not given) */
  const char *ram_size_arg, *flash_size_arg; /* as given */
  glow_import_options import;
  glow_pass_options passes;
  glow_bundle_options bundle;
  int nbind;
  const char **bind; /* -bind-input=<name>,<tensor.pb> */
  const char *cache_dir;    /* -cache-dir or GLOWC_CACHE_DIR; NULL: none */
  const char *remote_cache; /* -remote-cache or GLOWC_REMOTE_CACHE as shown: without user and password; NULL: none */
  const char *remote_cache_url; /* the same URL as given, credentials and all: for libcurl only */
  char *owned_remote_cache;     /* remote_cache's memory */
  int nremote_headers;
  const char **remote_headers;  /* -remote-cache-header=Name:Value, in order */
  int remote_cache_mode;        /* -remote-cache-mode or GLOWC_REMOTE_CACHE_MODE: GLOW_REMOTE_CACHE_* */
  const char *remote_cache_ca;  /* GLOWC_REMOTE_CACHE_CA: PEM file of the CAs to trust; NULL: the system's */
  uint64_t cache_max_size;  /* -cache-max-size or GLOWC_CACHE_MAX_SIZE: bytes of -cache-dir; 0: unbounded */
  const char *dump_profile;  /* -dump-profile=<file.yml>: profile instead of compiling */
  const char *load_profile;  /* -load-profile=<file.yml>: quantize with it */
  glow_quant_options quant;
  int quant_set;             /* a quantization option other than -load-profile was given */
  int ndatasets;
  const char **datasets;     /* -input-dataset=<input>,<kind>,<file or dir> */
  int nload_pass;
  const char **load_pass;    /* -load-pass=<lib.so>, in order */
  int npass_names;
  const char **pass_names;   /* -pass=<name>[,...], in order */
  glow_plugins *plugins;     /* loaded from them; also in passes.plugins */
  /* image-classifier (Glow's tool): values as given, checked by driver/image-*.c */
  int nimages;
  const char **images;             /* the positional arguments: PNG files */
  const char *input_image_dir;     /* -input-image-dir: every PNG in it, in name order */
  const char *image_mode;          /* -image-mode / -i: 0to1, neg1to1, 0to255, neg128to127, ... */
  const char *image_layout;        /* -image-layout: NCHW or NHWC */
  const char *image_channel_order; /* -image-channel-order: BGR or RGB */
  const char *image_list;          /* -input-image-list-file: one image path a line */
  const char *model_input_name;    /* -model-input-name: the input the images feed */
  const char *mean, *stddev;       /* -mean, -stddev: "v[,v,v]", checked by driver/image-tensor.c */
  int imagenet;                    /* -use-imagenet-normalization */
  int minibatch;                   /* -minibatch: images per run (default 1; 0: all at once) */
  int topk;                        /* -topk: labels printed per image (default 1; 0: none) */
  const char *output_name;         /* -output-name: the output whose labels are printed */
  int compute_softmax;             /* -compute-softmax */
  int label_offset;                /* -label-offset: subtracted from each printed label */
  int nexpected;
  int *expected;                   /* -expected-labels: one label per image */
  char *owned_name, *owned_triple, *owned_features, *owned_keep, *owned_entry;
  glow_driver_tool tool;     /* the tool parsing (some options differ) */
} glow_driver_options;

/* driver/options.c: each tool takes only the options of its -help (options.def).
 * @return 0, or -1 after reporting every mistake on the command line. */
int glow_driver_parse(glow_driver_tool tool, int argc, char **argv, glow_driver_options *d);
void glow_driver_options_free(glow_driver_options *d);
/* driver/option-help.c: -help, made from options.def */
void glow_driver_usage(glow_driver_tool tool, FILE *f);
/* driver/option-match.c: "-name=value" / "-name value" / "--name ...": the value ("" without one), or NULL if
 * argv[*i] is not this option. */
const char *glow_option_match(int argc, char **argv, int *i, const char *name, int takes_value);

/* driver/cache.c */
/* The entry's key (64 hex digits); -1 if an input cannot be read (the compile then reports it). */
int glow_cache_key(const glow_driver_options *d, char key[65]);
/* 1: local hit, 2: remote hit, 0: miss (a corrupted entry is a miss, and a local one is deleted). */
int glow_cache_fetch(const glow_driver_options *d, const char *key, glow_cache_entry *e);
/* Best effort: failures are warnings. */
void glow_cache_store(const glow_driver_options *d, const char *key, const glow_bundle_file *files, int n);

/* driver/remote-cache.c: GET and PUT of an entry on the remote cache; a failure is a warning. */
enum { GLOW_REMOTE_CACHE_UNSET, GLOW_REMOTE_CACHE_RW, GLOW_REMOTE_CACHE_READ /* no PUT */, GLOW_REMOTE_CACHE_WRITE /* no GET */ };
/* @return 1 with the entry's bytes (malloc'd, not yet checked), 0 if the server has none, -1 after a warning. */
int glow_remote_cache_get(const glow_driver_options *d, const char *key, void **bytes, size_t *size);
void glow_remote_cache_put(const glow_driver_options *d, const char *key, const void *data, size_t size);
/* The environment forms of the remote cache's options that were not given, and GLOWC_REMOTE_CACHE_CA,
 * checked. @return 0 or -1. */
int glow_remote_cache_env(glow_driver_options *d);

/* driver/cache-local.c: the local cache's statistics and size bound. Its folder holds, beside
 * the entries, "stats" (the counters) and "lock". Every function is best effort for a compile. */
typedef enum {
  GLOW_CACHE_STAT_LOCAL_HIT,
  GLOW_CACHE_STAT_LOCAL_MISS,
  GLOW_CACHE_STAT_REMOTE_HIT,
  GLOW_CACHE_STAT_REMOTE_MISS,  /* the server answered: no entry, or one that does not check out */
  GLOW_CACHE_STAT_REMOTE_ERROR, /* no answer, or an HTTP error */
  GLOW_CACHE_STAT_STORED,       /* entries stored in the local folder */
  GLOW_CACHE_STAT_EVICTED,      /* entries removed by -cache-max-size or glowc-cache -prune */
  GLOW_CACHE_NSTATS
} glow_cache_stat;
/* Adds one to a counter kept in d->cache_dir (nothing without one); safe between processes. */
void glow_cache_stat_count(const glow_driver_options *d, glow_cache_stat s);
const char *glow_cache_stat_name(glow_cache_stat s); /* as in the stats file: "local_hit", ... */
/* A local hit on the entry at `path`: it becomes the most recently used. */
void glow_cache_local_used(const char *path);
/* After an entry is stored in d->cache_dir: counted; over d->cache_max_size, the least recently used removed. */
void glow_cache_local_stored(const glow_driver_options *d);
/* The counters (all 0 if none yet). @return 0, or -1 if the stats file cannot be read. */
int glow_cache_stats_read(const char *dir, uint64_t counts[GLOW_CACHE_NSTATS]);
int glow_cache_stats_zero(const char *dir);
/* The entries in dir: how many, and their bytes. @return 0, or -1 if dir cannot be read. */
int glow_cache_usage(const char *dir, uint64_t *entries, uint64_t *bytes);
/* Removes the least recently used entries until dir holds at most max bytes (0: all, not counted
 * as evicted), under the folder's lock, and temporary files over an hour old. @return the entries
 * removed, or -1. */
long glow_cache_prune(const char *dir, uint64_t max);
/* Reads every entry and reports each that does not check out. @return how many, or -1. */
int glow_cache_verify(const char *dir);

/* driver/compile.c */
int glow_driver_compile(const glow_driver_options *d);

/* driver/dataset.c: one -input-dataset */
typedef enum { GLOW_DATA_RAWBIN, GLOW_DATA_RAWTXT } glow_data_kind;
typedef enum {
  GLOW_DATA_PATH, /* <file or dir> */
  GLOW_DATA_DIR,  /* Glow's dir,<dir> */
  GLOW_DATA_LIST, /* Glow's file,<list file>[,<prefix>]: one path a line */
} glow_data_source;
typedef struct glow_dataset {
  const char *spec; /* the option's value */
  char *input;      /* model input name */
  glow_data_kind kind;
  glow_data_source source;
  char *path, *prefix;
  int nfiles;
  char **files;     /* after glow_dataset_list: one tensor each, in order */
} glow_dataset;
/* The option's syntax. @return 0, or -1 after "-input-dataset: error: ...". */
int glow_dataset_parse(const char *spec, glow_dataset *ds);
/* The files: a directory's regular files not starting with '.', in strcmp order;
 * a list file's paths; or the one file. @return 0, or -1 after "path: error: ...". */
int glow_dataset_list(glow_dataset *ds);
/* Every rawbin file has exactly v's size (checked before a long run starts). */
int glow_dataset_check_size(const glow_dataset *ds, const glow_value *v);
/* File i into dst (glow_value_bytes(v)): *.npy as NumPy, else as ds->kind. */
int glow_dataset_read(const glow_dataset *ds, int i, const glow_value *v, void *dst);
void glow_dataset_free(glow_dataset *ds);

/* driver/profile-run.c: -dump-profile */
int glow_driver_profile(const glow_driver_options *d);
/* The calibration samples of a profile: model-profiler's tensors, image-classifier's images. */
typedef struct glow_sample_source {
  int nsamples;
  /* Sample s's tensors into in[] (one per graph input, sized and typed as it). @return 0 or -1. */
  int (*read)(void *ctx, int s, const glow_graph *g, glow_tensor *in);
  /* Names sample s (its files) for a message. */
  void (*name)(void *ctx, int s, const glow_graph *g, glow_strbuf *out);
  void *ctx;
} glow_sample_source;
/* The profile of g over every sample, written to d->dump_profile only when all ran. */
int glow_driver_profile_samples(const glow_driver_options *d, const glow_graph *g, const glow_sample_source *src);
/* The directory of a -dump-profile file exists and is writable. @return 0, or -1 after an error. */
int glow_driver_profile_check_output(const char *path);

/* driver/memory-budget.c: -ram-size and -flash-size against what the bundle needs: its areas
 * (p's sizes), its object's sections, the packed weights' size (wzst_size, 0: none) and the
 * stack its codegen measured (st, NULL or not measured: none). Silent when it fits, but for
 * -verbose, which prints the budget. @return 0, or -1 after an error naming every part. */
int glow_memory_check(const glow_driver_options *d, const glow_plan *p, const void *obj, size_t obj_size,
                      size_t wzst_size, const glow_stack_usage *st);
/* 1 if the codegen measures the stack: always (the header's <NAME>_STACK_SIZE), but where
 * external LLVM tools make the object, only for -ram-size or -verbose (it costs a second
 * object, glowc's own, then). */
int glow_driver_wants_stack(const glow_driver_options *d);

/* driver/bundle-objects.c: -bundle-objects */
/* The object file named (a path, or a name in $GLOWC_BUNDLE_OBJECTS_DIR), malloc'd; NULL after an error. */
char *glow_bundle_object_path(const char *name);
/* The bundle's object `obj` and every -bundle-objects file as one ar archive (with its
 * symbol index) in *ar (malloc'd). @return 0, or -1 after an error. */
int glow_bundle_archive(const glow_driver_options *d, const void *obj, size_t size, void **ar, size_t *ar_size);

#endif
