/* The parsers of the options whose values are more than a string, a number
 * or a choice (options.def's CUSTOM entries). Each reports its own errors as
 * "-option: error: ..." and returns -1. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "driver/option-table.h"

static void append(const char ***list, int *n, const char *v) {
  *list = glow_xrealloc(*list, sizeof **list * (size_t)(*n + 1));
  (*list)[(*n)++] = v;
}

/* A comma list of names (copies) appended to *list. */
static void append_split(const char ***list, int *n, const char *v) {
  for (const char *p = v; *p;) {
    size_t len = strcspn(p, ",");
    char *name = glow_xmalloc(len + 1);
    memcpy(name, p, len);
    name[len] = 0;
    append(list, n, name);
    p += len + (p[len] == ',');
  }
}

int glow_opt_model(glow_driver_options *d, const char *v) {
  if (d->init_net) {
    glow_error("-model", "given three times: -model takes an .onnx file, a Caffe2 folder, or a Caffe2 "
                         "predict_net.pb then its init_net.pb");
    return -1;
  }
  *(d->model ? &d->init_net : &d->model) = v;
  return 0;
}

/* -entry=<entry name>,<model>: the name checked here, the model when compiled. */
int glow_opt_entry(glow_driver_options *d, const char *v) {
  const char *comma = strchr(v, ',');
  int ok = comma && comma > v && comma[1] && !isdigit((unsigned char)*v);
  for (const char *p = v; ok && p < comma; p++)
    ok = isalnum((unsigned char)*p) || *p == '_';
  if (!ok) {
    glow_error("-entry", "'%s' is not <entry name>,<model file> (the name a C identifier)", v);
    return -1;
  }
  append(&d->entries, &d->nentries, v);
  return 0;
}

/* "[1,3,224,224]" or "1,3,224,224"; "[]" is a scalar. */
static int parse_dims(const char *s, int *rank, int64_t *dims) {
  while (isspace((unsigned char)*s))
    s++;
  int bracket = *s == '[';
  s += bracket;
  *rank = 0;
  while (*s && *s != ']') {
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < 0 || *rank >= GLOW_MAX_RANK)
      return -1;
    dims[(*rank)++] = v;
    s = end;
    if (*s == ',')
      s++;
  }
  if (bracket && (*s != ']' || s[1]))
    return -1;
  return 0;
}

/* Glow's quantized types: the dtype the placeholder keeps. */
static glow_dtype quantized_type(const char *t) {
  return !strcmp(t, "int8q") ? GLOW_DT_I8 : !strcmp(t, "int16q") ? GLOW_DT_I16 : !strcmp(t, "int32q") ? GLOW_DT_I32
                                                                                                        : GLOW_DT_UNDEF;
}

/* name[,type[,scale,offset],shape]: Glow's forms (tools/loader/Loader.cpp). */
int glow_opt_model_input(glow_driver_options *d, const char *v) {
  glow_import_options *o = &d->import;
  int i = o->ninputs;
  o->input_names = glow_xrealloc(o->input_names, sizeof *o->input_names * (size_t)(i + 1));
  o->input_types = glow_xrealloc(o->input_types, sizeof *o->input_types * (size_t)(i + 1));
  o->input_ranks = glow_xrealloc(o->input_ranks, sizeof *o->input_ranks * (size_t)(i + 1));
  o->input_dims = glow_xrealloc(o->input_dims, sizeof *o->input_dims * (size_t)(i + 1));
  o->input_scales = glow_xrealloc(o->input_scales, sizeof *o->input_scales * (size_t)(i + 1));
  o->input_offsets = glow_xrealloc(o->input_offsets, sizeof *o->input_offsets * (size_t)(i + 1));
  char *copy = glow_xstrdup(v), *type = strchr(copy, ',');
  o->input_types[i] = GLOW_DT_UNDEF;
  o->input_ranks[i] = -1;
  o->input_scales[i] = 0;
  o->input_offsets[i] = 0;
  if (type)
    *type++ = 0;
  if (!*copy) {
    glow_error("-model-input", "'%s' has no input name (the form: <name>[,<type>[,<scale>,<offset>],[d0,...]])", v);
    free(copy);
    return -1;
  }
  o->input_names[i] = copy;
  o->ninputs++;
  if (!type) { /* a bare name, as Glow's -model-input-name */
    if (!d->model_input_name)
      d->model_input_name = copy;
    return 0;
  }
  char *shape = strchr(type, ',');
  if (!shape) {
    glow_error("-model-input", "'%s' has a type but no shape: give <name>,%s,[d0,d1,...]", v, type);
    return -1;
  }
  *shape++ = 0;
  glow_dtype q = quantized_type(type);
  if (q) {
    char *off = strchr(shape, ','), *end1, *end2;
    char *rest = off ? strchr(off + 1, ',') : NULL;
    if (!off || !rest) {
      glow_error("-model-input", "'%s': %s needs a scale and an offset: <name>,%s,<scale>,<offset>,[d0,...]", v, type,
                 type);
      return -1;
    }
    *off++ = 0;
    *rest++ = 0;
    double scale = strtod(shape, &end1);
    long long offset = strtoll(off, &end2, 10);
    if (end1 == shape || *end1 || !((float)scale > 0) || end2 == off || *end2 || offset < INT32_MIN || offset > INT32_MAX) {
      glow_error("-model-input", "'%s': the scale must be a positive float number and the offset an integer (got '%s' and "
                 "'%s')", v, shape, off);
      return -1;
    }
    o->input_scales[i] = (float)scale;
    o->input_offsets[i] = (int32_t)offset;
    o->input_types[i] = q;
    shape = rest;
  } else {
    o->input_types[i] = glow_dtype_from_name(type);
    if (!o->input_types[i]) {
      glow_error("-model-input", "unknown element type '%s' in '%s' (use float, float16, bfloat16, int32, int64, "
                 "bool, int8, uint8, ..., or Glow's int8q, int16q, int32q with a scale and offset)", type, v);
      return -1;
    }
  }
  if (parse_dims(shape, &o->input_ranks[i], o->input_dims[i])) {
    glow_error("-model-input", "bad shape '%s' in '%s' (expected [d0,d1,...] with at most %d non-negative dims)",
               shape, v, GLOW_MAX_RANK);
    o->input_ranks[i] = -1;
    return -1;
  }
  return 0;
}

int glow_opt_define_symbol(glow_driver_options *d, const char *v) {
  glow_import_options *o = &d->import;
  const char *comma = strchr(v, ',');
  char *end;
  long long val = comma ? strtoll(comma + 1, &end, 10) : 0;
  if (!comma || comma == v || end == comma + 1 || *end || val < 0) {
    glow_error("-onnx-define-symbol", "'%s' is not <name>,<non-negative integer>", v);
    return -1;
  }
  int i = o->nsymbols++;
  o->symbol_names = glow_xrealloc(o->symbol_names, sizeof *o->symbol_names * (size_t)o->nsymbols);
  o->symbol_values = glow_xrealloc(o->symbol_values, sizeof *o->symbol_values * (size_t)o->nsymbols);
  char *name = glow_xmalloc((size_t)(comma - v) + 1);
  memcpy(name, v, (size_t)(comma - v));
  name[comma - v] = 0;
  o->symbol_names[i] = name;
  o->symbol_values[i] = val;
  return 0;
}

int glow_opt_bind_input(glow_driver_options *d, const char *v) {
  append(&d->bind, &d->nbind, v);
  if (strchr(v, ','))
    return 0;
  glow_error("-bind-input", "'%s' is not <input name>,<tensor.pb>", v);
  return -1;
}

int glow_opt_input_dataset(glow_driver_options *d, const char *v) {
  append(&d->datasets, &d->ndatasets, v);
  return 0;
}

int glow_opt_backend(glow_driver_options *d, const char *v) {
  if (!strcmp(v, "CPU") || (d->tool == GLOW_TOOL_CLASSIFIER && !strcmp(v, "Interpreter")))
    return 0;
  glow_error("-backend", "unknown backend '%s' (glowc has one backend: CPU; pick the target with -target)", v);
  return -1;
}

int glow_opt_weights(glow_driver_options *d, const char *v) {
  static const struct { const char *name; unsigned bit; } kinds[] = {{"bin", GLOW_WEIGHTS_BIN},
                                                                      {"txt", GLOW_WEIGHTS_TXT},
                                                                      {"zst", GLOW_WEIGHTS_ZST},
                                                                      {"embedded", GLOW_WEIGHTS_EMBEDDED}};
  unsigned *out = &d->bundle.weights;
  *out = 0;
  while (*v) {
    size_t n = strcspn(v, ",");
    unsigned bit = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
      if (strlen(kinds[k].name) == n && !strncmp(kinds[k].name, v, n))
        bit = kinds[k].bit;
    if (!bit) {
      glow_error("-weights", "unknown kind '%.*s' (kinds: bin, txt, zst, embedded; comma-separated)", (int)n, v);
      return -1;
    }
    *out |= bit;
    v += n + (v[n] == ',');
  }
  if (!*out) {
    glow_error("-weights", "empty list (kinds: bin, txt, zst, embedded; comma-separated)");
    return -1;
  }
  return 0;
}

int glow_opt_target(glow_driver_options *d, const char *v) {
  d->bundle.target.triple = v;
  return 0;
}

/* Glow's -target-feature is a comma list, repeatable; a bare name is added. */
int glow_opt_target_feature(glow_driver_options *d, const char *v) {
  glow_strbuf b = {0};
  if (d->owned_features)
    glow_sb_printf(&b, "%s", d->owned_features);
  for (const char *p = v; *p;) {
    size_t n = strcspn(p, ",");
    if (n)
      glow_sb_printf(&b, "%s%s%.*s", b.len ? "," : "", *p == '+' || *p == '-' ? "" : "+", (int)n, p);
    p += n + (p[n] == ',');
  }
  free(d->owned_features);
  d->owned_features = b.s;
  d->bundle.target.features = b.s;
  return 0;
}

int glow_opt_disable_pass(glow_driver_options *d, const char *v) {
  append_split(&d->passes.disabled, &d->passes.ndisabled, v);
  return 0;
}

int glow_opt_load_pass(glow_driver_options *d, const char *v) {
  append(&d->load_pass, &d->nload_pass, v);
  return 0;
}

int glow_opt_pass(glow_driver_options *d, const char *v) {
  append_split(&d->pass_names, &d->npass_names, v);
  return 0;
}

/* Glow's node kinds and the ONNX ops they stand for. */
static const struct { const char *glow, *onnx; } glow_kinds[] = {
    {"Convolution", "Conv"},          {"ChannelwiseQuantizedConvolution", "Conv"},
    {"FullyConnected", "Gemm"},       {"FullyConnected", "MatMul"},
    {"RowwiseQuantizedFullyConnected", "Gemm"},
    {"MatMul", "MatMul"},             {"BatchMatMul", "MatMul"},
    {"SoftMax", "Softmax"},           {"LogSoftMax", "LogSoftmax"},
    {"Relu", "Relu"},                 {"Sigmoid", "Sigmoid"},
    {"Tanh", "Tanh"},                 {"Add", "Add"},
    {"Sub", "Sub"},                   {"Mul", "Mul"},
    {"Div", "Div"},                   {"Max", "Max"},
    {"Min", "Min"},                   {"MaxPool", "MaxPool"},
    {"AvgPool", "AveragePool"},       {"AdaptiveAvgPool", "GlobalAveragePool"},
    {"Concat", "Concat"},             {"Reshape", "Reshape"},
    {"Transpose", "Transpose"},       {"Slice", "Slice"},
    {"Tile", "Tile"},                 {"Gather", "Gather"},
    {"BatchNormalization", "BatchNormalization"},
    {"LocalResponseNormalization", "LRN"},
    {"LayerNormalization", "LayerNormalization"},
    {"Clip", "Clip"},                 {"LeakyRelu", "LeakyRelu"},
    {"PRelu", "PRelu"},               {"Exp", "Exp"},
    {"Log", "Log"},                   {"Pow", "Pow"},
    {"BatchedReduceMean", "ReduceMean"}, {"BatchedReduceAdd", "ReduceSum"},
    {"ResizeNearest", "Resize"},      {"ResizeBilinear", "Resize"},
    {"Pad", "Pad"},                   {"Splat", "ConstantOfShape"},
    {"ConvTranspose", "ConvTranspose"},
    {"AvgPool", "GlobalAveragePool"}, {"Reshape", "Flatten"},
    {"Reshape", "Squeeze"},           {"Reshape", "Unsqueeze"},
    {"CmpEQ", "Equal"},               {"CmpLT", "Less"},
    {"CmpLTE", "LessOrEqual"},        {"Select", "Where"},
    {"Broadcast", "Expand"},          {"ConvertTo", "Cast"},
    {"BatchedReduceMax", "ReduceMax"}, {"BatchedReduceMin", "ReduceMin"},
    {"BatchedReduceProd", "ReduceProd"}, {"BatchedReduceSumSquare", "ReduceSumSquare"},
    {"SoftPlus", "Softplus"},         {"ScatterData", "ScatterND"},
    {"Fmod", "Mod"},                  {"Modulo", "Mod"},
    {"Convolution3D", "Conv"},        {"MeanVarNormalization", "MeanVarianceNormalization"},
    {"Embedding", "Gather"},          {"LSTMUnit", "LSTM"},
    {"BatchedAdd", "Add"},            {"BatchedMul", "Mul"},
};

/* Appends the ONNX op names a kind (ONNX's or Glow's) stands for; 0 if none. */
static int add_kind(glow_strbuf *b, const char *name) {
  int found = 0;
  for (size_t k = 0; k < sizeof glow_kinds / sizeof glow_kinds[0]; k++)
    if (!strcmp(glow_kinds[k].glow, name)) {
      glow_sb_printf(b, "%s%s", b->len ? "," : "", glow_kinds[k].onnx);
      found = 1;
    }
  if (!found && glow_op_from_onnx(name) != GLOW_OP_COUNT) {
    glow_sb_printf(b, "%s%s", b->len ? "," : "", name);
    found = 1;
  }
  return found;
}

int glow_opt_keep_precision(glow_driver_options *d, const char *v) {
  glow_strbuf b = {0};
  if (d->owned_keep)
    glow_sb_printf(&b, "%s", d->owned_keep);
  int rc = 0;
  for (const char *s = v; *s;) {
    size_t n = strcspn(s, ",");
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)n, s);
    if (n && !add_kind(&b, name)) {
      glow_error("-keep-original-precision-for-nodes", "'%s' is neither an ONNX op glowc knows (e.g. Conv, MatMul) "
                 "nor a Glow node kind (e.g. Convolution, FullyConnected, SoftMax)", name);
      rc = -1;
    }
    s += n + (s[n] == ',');
  }
  free(d->owned_keep);
  d->owned_keep = b.s;
  d->quant.keep_kinds = b.s;
  return rc;
}

int glow_opt_bundle_objects(glow_driver_options *d, const char *v) {
  append_split(&d->bundle_objects, &d->nbundle_objects, v);
  return 0;
}

int glow_opt_llvm_compiler_opt(glow_driver_options *d, const char *v) {
  append(&d->llvm_opts, &d->nllvm_opts, v);
  return 0;
}

int glow_opt_instrument_debug_format(glow_driver_options *d, const char *v) {
  static const char *const formats[] = {"console", "bin", "txt", "rawbin", "rawtxt"};
  for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++)
    if (!strcmp(v, formats[k])) {
      d->bundle.instrument_debug_format = v;
      return 0;
    }
  glow_error("-instrument-debug-format", "'%s' is not one of console, bin, txt, rawbin, rawtxt", v);
  return -1;
}

/* image-classifier feeds one input, so one list (Glow's takes a comma list, a file per input). */
int glow_opt_image_list(glow_driver_options *d, const char *v) {
  if (d->image_list || strchr(v, ',')) {
    glow_error("-input-image-list-file", "one list file (image-classifier feeds one input)");
    return -1;
  }
  d->image_list = v;
  return 0;
}

/* Glow's comma list of labels (non-negative integers), repeatable: appended in order. */
int glow_opt_expected_labels(glow_driver_options *d, const char *v) {
  for (const char *s = v;;) {
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || x < 0 || x > 1L << 30 || (*end && *end != ',')) {
      glow_error("-expected-labels", "'%s' is not a comma list of labels (non-negative integers)", v);
      return -1;
    }
    d->expected = glow_xrealloc(d->expected, sizeof *d->expected * (size_t)(d->nexpected + 1));
    d->expected[d->nexpected++] = (int)x;
    if (!*end)
      return 0;
    s = end + 1;
  }
}

int glow_opt_verbose(glow_driver_options *d, const char *v) {
  (void)v;
  d->verbose = d->passes.verbose = d->bundle.verbose = 1;
  return 0;
}

/* -tflite-bias-scale-check-max-error=<e>: a relative error, positive (0 in the field is Glow's 1e-6). */
int glow_opt_tflite_bias_max_error(glow_driver_options *d, const char *v) {
  char *end;
  double e = strtod(v, &end);
  if (!*v || *end || !(e > 0 && e <= 1e30)) {
    glow_error("-tflite-bias-scale-check-max-error", "'%s' is not a positive number (a relative error, e.g. 1e-6)",
               v);
    return -1;
  }
  d->import.tflite.bias_scale_max_error = e;
  return 0;
}

/* -ram-size, -flash-size: <bytes>[K|M|G] (optionally KB or KiB, ...), K being 1024 bytes as
 * board data sheets count; a whole number from 1 byte to 2^48. */
static int parse_size(const char *opt, const char *v, uint64_t *size, const char **arg) {
  int rc = glow_size_parse(v, size);
  if (rc == -1 || (!rc && !*size)) {
    glow_error(opt, "'%s' is not a size of memory: give it in bytes, or in K, M or G (1024 bytes, 1024 K, "
                    "1024 M), e.g. %s=256K", v, opt);
    return -1;
  }
  if (rc == -2) {
    glow_error(opt, "'%s' is more than 2^48 bytes (256 TiB); give the board's memory, e.g. %s=256K", v, opt);
    return -1;
  }
  *arg = v;
  return 0;
}

int glow_opt_ram_size(glow_driver_options *d, const char *v) {
  return parse_size("-ram-size", v, &d->ram_size, &d->ram_size_arg);
}

int glow_opt_flash_size(glow_driver_options *d, const char *v) {
  return parse_size("-flash-size", v, &d->flash_size, &d->flash_size_arg);
}

/* -cache-max-size, GLOWC_CACHE_MAX_SIZE: a bound of 0 would keep nothing. */
static int cache_size(const char *what, const char *v, uint64_t *size) {
  if (glow_size_arg(what, v, size))
    return -1;
  if (!*size) {
    glow_error(what, "'0' would keep nothing in the cache: give a size over 0 (e.g. 512M), or no -cache-dir");
    return -1;
  }
  return 0;
}

int glow_opt_cache_max_size(glow_driver_options *d, const char *v) {
  return cache_size("-cache-max-size", v, &d->cache_max_size);
}

int glow_cache_max_size_env(glow_driver_options *d) {
  const char *v = getenv("GLOWC_CACHE_MAX_SIZE");
  if (!d->cache_max_size && v && *v && cache_size("GLOWC_CACHE_MAX_SIZE", v, &d->cache_max_size))
    return -1;
  if (d->cache_max_size && !d->cache_dir && !(v && *v)) {
    glow_error("-cache-max-size", "bounds the local cache: give -cache-dir=<dir> (or GLOWC_CACHE_DIR) too");
    return -1;
  }
  return 0;
}
