/* Command-line options, Glow-compatible spelling: -name=value or -name value
 * (one or two leading dashes). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/driver.h"

static const char *usage_text =
    "USAGE: model-compiler -model=<file.onnx> -emit-bundle=<dir> [options]\n"
    "       model-compiler -model=<file.onnx> -dump-profile=<file.yml> -input-dataset=... [options]\n"
    "       model-compiler -model=<Caffe2 dir> -model-input=<name>,float,[d0,...] -emit-bundle=<dir>\n"
    "\n"
    "Compiles an ONNX or Caffe2 model into a bundle: <dir>/<name>.o, <name>.h and\n"
    "<name>.weights.bin (plus <name>.weights.txt with -bundle-api=static; see -weights),\n"
    "following Glow's bundle ABI. With -dump-profile it writes a quantization profile\n"
    "instead, as model-profiler does.\n"
    "\n"
    "OPTIONS:\n"
    "  -model=<file or dir>        Model to compile (required): an ONNX file, or a Caffe2\n"
    "                              model: a folder holding predict_net.pb and init_net.pb\n"
    "                              (or -model=<predict_net.pb> -model=<init_net.pb>). Caffe2\n"
    "                              nets record no input shapes: give each -model-input.\n"
    "  -emit-bundle=<dir>          Directory for the bundle files (required; must exist).\n"
    "  -backend=CPU                Backend; CPU is the only one (accepted for Glow compatibility).\n"
    "  -network-name=<name>        Bundle name: file names, symbols and macro prefix\n"
    "                              (default: the model file name without extension, or\n"
    "                              the Caffe2 folder's name).\n"
    "  -main-entry-name=<name>     Name of the entry function (default: the network name).\n"
    "  -bundle-api=static|dynamic  Header with offset macros (static, default) or a\n"
    "                              <name>_config symbol table (dynamic).\n"
    "  -weights=<kinds>            Where the constant weights go, a comma list of: bin\n"
    "                              (<name>.weights.bin), txt (<name>.weights.txt, a C\n"
    "                              initializer list), zst (<name>.weights.zst: packed with\n"
    "                              zstd, checked; glow_weights_load_zst() reads it), embedded\n"
    "                              (in <name>.o, read-only section .rodata.glow.<name>,\n"
    "                              symbol <name>_constant_weights; the entry point then\n"
    "                              ignores its constantWeight argument); embedded,zst puts\n"
    "                              the packed bytes in <name>.o instead\n"
    "                              (<name>_constant_weights_zst, for glow_weights_unpack();\n"
    "                              the entry point reads the unpacked constantWeight)\n"
    "                              (default: bin, plus txt with -bundle-api=static).\n"
    "  -weights-compression-level=<1..22>\n"
    "                              zstd level of the zst weights (default: 3; higher levels\n"
    "                              pack a few percent smaller and take far longer).\n"
    "  -target=<triple>            Target triple (default: the host's, %s). Kernels for:\n"
    "                              x86_64-linux-gnu, aarch64-linux-gnu, riscv64-linux-gnu,\n"
    "                              thumbv7em-none-eabihf (Cortex-M4/M7; bare metal),\n"
    "                              nvptx64-nvidia-cuda (NVIDIA GPUs: PTX for -mcpu=sm_XX,\n"
    "                              default sm_80, in an object for the host that launches it\n"
    "                              through the CUDA driver; link glowc_runtime_cuda).\n"
    "  -cuda-host=<triple>         Host of a CUDA bundle: x86_64-linux-gnu or aarch64-linux-gnu\n"
    "                              (default: this machine's).\n"
    "  -mcpu=<cpu>                 Target CPU, e.g. znver4, cortex-a72, neoverse-n1, sifive-u74,\n"
    "                              cortex-m7; 'native' for this machine's; 'baseline' for the\n"
    "                              target's portable baseline: x86-64-v2, generic (Armv8-A),\n"
    "                              generic-rv64 (RV64GC), cortex-m4, sm_80 (CUDA). Default:\n"
    "                              native when the target is this machine's (no -target, or\n"
    "                              the host's triple), else the baseline. Bundles that must\n"
    "                              run on other machines of the same architecture:\n"
    "                              -mcpu=baseline (or e.g. x86-64-v3).\n"
    "  -mattr=<+feat,-feat,...>    Target features to add or remove (e.g. +dotprod, +v).\n"
    "  -float-abi=soft|softfp|hard\n"
    "                              32-bit Arm only: floats passed in FPU registers (hard, the\n"
    "                              default for eabihf triples), in core registers with the FPU\n"
    "                              used (softfp), or no FPU at all (soft).\n"
    "  -num-threads=<N>            Split the work of each convolution, matrix product and\n"
    "                              pooling step into N parts run by N threads (default: 1).\n"
    "                              The threads come from the runtime library's pool\n"
    "                              (runtime/thread-pool.c, glow_parallel_for); a program\n"
    "                              without it runs the parts on the calling thread. Outputs\n"
    "                              are the same bits for any N and any pool size.\n"
    "  -relocation-model=pic|static\n"
    "                              Code model for the object (default: pic, which links into\n"
    "                              position-independent executables, the distro default;\n"
    "                              static for bare-metal triples such as thumbv7em-none-eabihf).\n"
    "  -model-input=<name>,<type>,[d0,d1,...]\n"
    "                              Type and shape of an input (repeatable), for models\n"
    "                              without them; must agree with the model if it has them.\n"
    "  -onnx-define-symbol=<name>,<value>\n"
    "                              Value of a symbolic dimension (repeatable).\n"
    "  -bind-input=<name>,<tensor.pb>\n"
    "                              Fixes an input to the values in a serialized ONNX\n"
    "                              TensorProto: it becomes a constant of the bundle (for\n"
    "                              inputs that give shapes, axes or sizes; repeatable).\n"
    "  -cache-dir=<dir>            Compile cache: a bundle whose inputs (model bytes, options,\n"
    "                              target, glowc version, kernels) were compiled before is\n"
    "                              copied from <dir> instead of compiled again; an entry\n"
    "                              is checked (SHA-256s, and the key it was stored for),\n"
    "                              one corrupted or filed under another key never used\n"
    "                              (default: the GLOWC_CACHE_DIR environment variable;\n"
    "                              none if unset).\n"
    "  -remote-cache=http://<host>[:<port>][/<prefix>]\n"
    "                              Shared compile cache on an HTTP server: GET and PUT of\n"
    "                              <url>/<key>, as for Bazel's HTTP cache (plain http only).\n"
    "                              Checked after -cache-dir; network errors only warn; a\n"
    "                              response claiming over 16 GiB is refused unread.\n"
    "  -dump-profile=<file.yml>    Profiles instead of compiling: runs the model in the\n"
    "                              reference interpreter over the -input-dataset samples\n"
    "                              and writes the range and histogram of every float value\n"
    "                              in Glow's profile format (no -emit-bundle; see\n"
    "                              model-profiler -help).\n"
    "  -input-dataset=<input>,rawbin|rawtxt,<file or dir>\n"
    "                              Calibration data of one model input for -dump-profile\n"
    "                              (one for every input), as for model-profiler.\n"
    "  -load-profile=<file.yml>    Quantizes to int8 with the value ranges of a profile\n"
    "                              (-dump-profile's or Glow's): Conv, MatMul, Gemm, MaxPool,\n"
    "                              AveragePool, GlobalAveragePool, Add, Mul and Concat of int8\n"
    "                              values and Reshape, Flatten, Squeeze, Unsqueeze and\n"
    "                              Transpose run on int8; a profile that does not match the\n"
    "                              model is an error naming every missing and unexpected value.\n"
    "                              Glow names its entries after its own nodes: each value is\n"
    "                              found through the ONNX node computing it (the entry of\n"
    "                              Glow's node for it).\n"
    "  -quantization-schema=asymmetric|symmetric|symmetric_with_uint8|symmetric_with_power2_scale\n"
    "                              How ranges become scales and zero points (default:\n"
    "                              asymmetric). Weights are always symmetric.\n"
    "  -quantization-precision=Int8|Int16\n"
    "                              Precision of activations and weights (default: Int8).\n"
    "                              Int16 is more accurate and slower (portable kernels,\n"
    "                              int64 sums); not with -quantization-calibration=KL.\n"
    "  -quantization-precision-bias=Int32|Int8\n"
    "                              Biases of Conv, MatMul and Gemm: int32 at the\n"
    "                              accumulator's scale (default), or first rounded to what\n"
    "                              an int8 bias over their range holds, as Glow quantizes\n"
    "                              for accelerators with int8 biases (Int8).\n"
    "  -enable-channelwise         A weight scale per output channel of each Conv.\n"
    "  -keep-original-precision-for-nodes=<op,op,...>\n"
    "                              ONNX op kinds left in float (e.g. Conv,Gemm).\n"
    "  -quantization-calibration=none|KL\n"
    "                              Ranges as profiled (none, default) or clipped where the\n"
    "                              KL divergence of the 8-bit histogram is smallest (KL).\n"
    "  -dump-graph-DAG=<file.dot>  Writes the optimized graph in Graphviz format.\n"
    "  -dump-after=<pass>          Prints the IR after a pass (-print-passes lists them;\n"
    "                              quantize, with -load-profile).\n"
    "  -print-passes               Lists the passes in the order they run, and which of them\n"
    "                              -disable-pass may turn off.\n"
    "  -disable-pass=<name>[,...]  Skips optimizing passes (repeatable), e.g. fuse-epilogue.\n"
    "  -load-pass=<lib.so>         Loads a graph-pass plugin (repeatable, in order; see\n"
    "                              glowc-pass.h): its passes run after fold-qdq.\n"
    "  -pass=<name>[,...]          The plugin passes that run, in this order (repeatable;\n"
    "                              default: every pass the plugins register).\n"
    "  -verbose                    Reports each stage, memory sizes and timings.\n"
    "  -version                    Prints the version.\n"
    "  -help                       Prints this text.\n";

static const char *profiler_usage_text =
    "USAGE: model-profiler -model=<file.onnx> -input-dataset=<input>,rawbin|rawtxt,<file or dir>\n"
    "                      -dump-profile=<file.yml> [options]\n"
    "\n"
    "Runs an ONNX or Caffe2 model in glowc's reference interpreter over calibration\n"
    "samples and writes the range (Min, Max) and a 2000-bin histogram of every float value\n"
    "as a quantization profile in Glow's YAML format (Glow's tools read it too). Values\n"
    "are named '<ONNX value or Caffe2 blob name>:0'. The same model, options and\n"
    "samples give the same bytes; on a terminal, progress goes to stderr.\n"
    "\n"
    "OPTIONS:\n"
    "  -model=<file or dir>        Model to profile (required): an ONNX file, or a Caffe2\n"
    "                              model (a folder holding predict_net.pb and init_net.pb,\n"
    "                              or -model=<predict_net.pb> -model=<init_net.pb>), whose\n"
    "                              inputs each need a -model-input.\n"
    "  -input-dataset=<input>,<kind>,<file or dir>\n"
    "                              Calibration data of one model input (repeatable; every\n"
    "                              input needs one): a file holds one tensor, a directory\n"
    "                              one tensor per file, taken in sorted name order (names\n"
    "                              starting with '.' skipped). Sample i runs the i-th file\n"
    "                              of every input. <kind> is rawbin (exactly the tensor's\n"
    "                              bytes, little-endian, row-major) or rawtxt (numbers\n"
    "                              separated by spaces, newlines or commas). A file named\n"
    "                              *.npy is read as a NumPy array of the input's type and\n"
    "                              size. Glow's <input>,<kind>,dir,<dir> and\n"
    "                              <input>,<kind>,file,<list>[,<prefix>] (one path a\n"
    "                              line) are accepted too.\n"
    "  -dump-profile=<file.yml>    The profile to write (required); written only when\n"
    "                              every sample ran.\n"
    "  -backend=CPU                Accepted for Glow compatibility (profiles come from the\n"
    "                              reference interpreter).\n"
    "  -model-input=<name>,<type>,[d0,d1,...]\n"
    "                              Type and shape of an input (repeatable), for models\n"
    "                              without them; must agree with the model if it has them.\n"
    "  -onnx-define-symbol=<name>,<value>\n"
    "                              Value of a symbolic dimension (repeatable).\n"
    "  -bind-input=<name>,<tensor.pb>\n"
    "                              Fixes an input to the values in a serialized ONNX\n"
    "                              TensorProto: it becomes a constant, takes no\n"
    "                              -input-dataset and is not profiled (repeatable).\n"
    "  -load-pass=<lib.so>         Loads a graph-pass plugin (repeatable, in order).\n"
    "  -pass=<name>[,...]          The plugin passes that run, in this order (default: all).\n"
    "  -verbose                    Reports the number of values and samples and the time.\n"
    "  -version                    Prints the version.\n"
    "  -help                       Prints this text.\n"
    "\n"
    "Compile with the same -model-input, -onnx-define-symbol, -bind-input, -load-pass and\n"
    "-pass options, so that the profile's names match the model's.\n";

void glow_driver_usage(glow_driver_tool tool, FILE *f) {
  if (tool == GLOW_TOOL_PROFILER) {
    fputs(profiler_usage_text, f);
    return;
  }
  char *triple = glow_default_triple();
  fprintf(f, usage_text, triple);
  free(triple);
}

/* An integer option from lo to hi into *out: 1 after reporting anything else. */
static int parse_int(const char *v, long lo, long hi, const char *option, const char *what, int *out) {
  char *end;
  long n = strtol(v, &end, 10);
  if (!*v || *end || n < lo || n > hi) {
    glow_error(option, "'%s' is not %s from %ld to %ld", v, what, lo, hi);
    return 1;
  }
  *out = (int)n;
  return 0;
}

/* -weights=bin,txt,zst,embedded: 1 after reporting an unknown kind. */
static int parse_weights(const char *v, unsigned *out) {
  static const struct { const char *name; unsigned bit; } kinds[] = {{"bin", GLOW_WEIGHTS_BIN},
                                                                      {"txt", GLOW_WEIGHTS_TXT},
                                                                      {"zst", GLOW_WEIGHTS_ZST},
                                                                      {"embedded", GLOW_WEIGHTS_EMBEDDED}};
  *out = 0;
  while (*v) {
    size_t n = strcspn(v, ",");
    unsigned bit = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
      if (strlen(kinds[k].name) == n && !strncmp(kinds[k].name, v, n))
        bit = kinds[k].bit;
    if (!bit) {
      glow_error("-weights", "unknown kind '%.*s' (kinds: bin, txt, zst, embedded; comma-separated)", (int)n, v);
      return 1;
    }
    *out |= bit;
    v += n + (v[n] == ',');
  }
  if (!*out) {
    glow_error("-weights", "empty list (kinds: bin, txt, zst, embedded; comma-separated)");
    return 1;
  }
  return 0;
}

/* "-name=value" / "-name value" / "--name ...": returns the value, or NULL if arg is not this option. */
static int parse_dims(const char *s, int *rank, int64_t *dims) {
  /* "[1,3,224,224]" or "1,3,224,224"; "[]" is a scalar. */
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
  if (bracket && *s != ']')
    return -1;
  return 0;
}

static int add_model_input(glow_driver_options *d, const char *v) {
  glow_import_options *o = &d->import;
  char *copy = glow_xstrdup(v);
  char *c1 = strchr(copy, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
  int i = o->ninputs;
  if (!c1 || !c2) {
    glow_error("-model-input", "'%s' is not <name>,<type>,[d0,d1,...]", v);
    free(copy);
    return -1;
  }
  *c1 = *c2 = 0;
  o->input_names = glow_xrealloc(o->input_names, sizeof *o->input_names * (size_t)(i + 1));
  o->input_types = glow_xrealloc(o->input_types, sizeof *o->input_types * (size_t)(i + 1));
  o->input_ranks = glow_xrealloc(o->input_ranks, sizeof *o->input_ranks * (size_t)(i + 1));
  o->input_dims = glow_xrealloc(o->input_dims, sizeof *o->input_dims * (size_t)(i + 1));
  o->input_names[i] = glow_xstrdup(copy);
  o->input_types[i] = glow_dtype_from_name(c1 + 1);
  if (!o->input_types[i]) {
    glow_error("-model-input", "unknown element type '%s' in '%s' (use float, double, float16, int8, uint8, int16, "
                               "int32, int64, bool, ...)", c1 + 1, v);
    free(copy);
    return -1;
  }
  if (parse_dims(c2 + 1, &o->input_ranks[i], o->input_dims[i])) {
    glow_error("-model-input", "bad shape '%s' in '%s' (expected [d0,d1,...] with at most %d non-negative dims)",
               c2 + 1, v, GLOW_MAX_RANK);
    free(copy);
    return -1;
  }
  o->ninputs++;
  free(copy);
  return 0;
}

static int add_symbol(glow_driver_options *d, const char *v) {
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

/* Default network name: the model file's base name without extension (a Caffe2
 * folder's whole name), as an identifier. */
static char *default_name(const char *model) {
  struct stat st;
  int dir = stat(model, &st) == 0 && S_ISDIR(st.st_mode);
  size_t len = strlen(model);
  while (len > 1 && model[len - 1] == '/')
    len--;
  const char *base = model + len;
  while (base > model && base[-1] != '/')
    base--;
  char *n = glow_xmalloc((size_t)(model + len - base) + 1), *dot;
  memcpy(n, base, (size_t)(model + len - base));
  n[model + len - base] = 0;
  if (!dir && (dot = strrchr(n, '.')) && dot != n)
    *dot = 0;
  for (char *p = n; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_')
      *p = '_';
  return n;
}

/* A comma list of names (copies) appended to *list. */
static void add_names(const char *v, const char ***list, int *n) {
  for (const char *p = v; *p;) {
    size_t len = strcspn(p, ",");
    *list = glow_xrealloc(*list, sizeof **list * (size_t)(*n + 1));
    char *name = glow_xmalloc(len + 1);
    memcpy(name, p, len);
    name[len] = 0;
    (*list)[(*n)++] = name;
    p += len + (p[len] == ',');
  }
}

static int valid_ident(const char *s) {
  if (!*s || isdigit((unsigned char)*s))
    return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_')
      return 0;
  return 1;
}

int glow_driver_parse(glow_driver_tool tool, int argc, char **argv, glow_driver_options *d) {
  memset(d, 0, sizeof *d);
  d->bundle.target.pic = -1;
  int bad = 0, mc = tool == GLOW_TOOL_COMPILER, ic = tool == GLOW_TOOL_CLASSIFIER;
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (ic && argv[i][0] != '-') {
      d->images = glow_xrealloc(d->images, sizeof *d->images * (size_t)(d->nimages + 1));
      d->images[d->nimages++] = argv[i];
    } else if (ic && (v = glow_option_match(argc, argv, &i, "input-image-dir", 1)))
      d->input_image_dir = v;
    else if (ic && ((v = glow_option_match(argc, argv, &i, "image-mode", 1)) ||
                    (v = glow_option_match(argc, argv, &i, "i", 1))))
      d->image_mode = v;
    else if (ic && (v = glow_option_match(argc, argv, &i, "image-layout", 1)))
      d->image_layout = v;
    else if (ic && (v = glow_option_match(argc, argv, &i, "image-channel-order", 1)))
      d->image_channel_order = v;
    else if (ic && (v = glow_option_match(argc, argv, &i, "minibatch", 1)))
      bad |= parse_int(v, 0, 1 << 20, "-minibatch", "an image count", &d->minibatch);
    else if (ic && (v = glow_option_match(argc, argv, &i, "topk", 1)))
      bad |= parse_int(v, 1, 1000, "-topk", "a label count", &d->topk);
    else if ((v = glow_option_match(argc, argv, &i, "model-input-name", 1)))
      d->model_input_name = v;
    else if ((v = glow_option_match(argc, argv, &i, "model", 1)) || (v = glow_option_match(argc, argv, &i, "m", 1))) {
      if (d->init_net) {
        glow_error("-model", "given three times: -model takes an .onnx file, a Caffe2 folder, or a Caffe2 "
                             "predict_net.pb then its init_net.pb");
        bad = 1;
      }
      *(d->model ? &d->init_net : &d->model) = v;
    } else if ((v = glow_option_match(argc, argv, &i, "dump-profile", 1)))
      d->dump_profile = v;
    else if ((v = glow_option_match(argc, argv, &i, "input-dataset", 1))) {
      d->datasets = glow_xrealloc(d->datasets, sizeof *d->datasets * (size_t)(d->ndatasets + 1));
      d->datasets[d->ndatasets++] = v;
    } else if (mc && (v = glow_option_match(argc, argv, &i, "emit-bundle", 1)))
      d->out_dir = v;
    else if ((v = glow_option_match(argc, argv, &i, "backend", 1))) {
      if (strcmp(v, "CPU")) {
        glow_error("-backend", "unknown backend '%s' (glowc has one backend: CPU; pick the target with -target)", v);
        bad = 1;
      }
    } else if (mc && (v = glow_option_match(argc, argv, &i, "network-name", 1)))
      d->bundle.network_name = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "main-entry-name", 1)))
      d->bundle.entry_name = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "bundle-api", 1))) {
      if (!strcmp(v, "static") || !strcmp(v, "dynamic"))
        d->bundle.dynamic_api = !strcmp(v, "dynamic");
      else {
        glow_error("-bundle-api", "'%s' is not static or dynamic", v);
        bad = 1;
      }
    } else if (mc && (v = glow_option_match(argc, argv, &i, "target", 1)))
      d->bundle.target.triple = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "cuda-host", 1)))
      d->bundle.host_triple = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "mcpu", 1)))
      d->bundle.target.cpu = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "mattr", 1)))
      d->bundle.target.features = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "float-abi", 1))) {
      if (!strcmp(v, "soft") || !strcmp(v, "softfp") || !strcmp(v, "hard"))
        d->bundle.target.float_abi = v;
      else {
        glow_error("-float-abi", "'%s' is not soft, softfp or hard", v);
        bad = 1;
      }
    } else if (mc && (v = glow_option_match(argc, argv, &i, "weights", 1)))
      bad |= parse_weights(v, &d->bundle.weights);
    else if (mc && (v = glow_option_match(argc, argv, &i, "weights-compression-level", 1))) {
      bad |= parse_int(v, 1, 22, "-weights-compression-level", "a zstd level", &d->bundle.zst_level);
      d->zst_level_set = 1;
    } else if (mc && (v = glow_option_match(argc, argv, &i, "num-threads", 1)))
      bad |= parse_int(v, 1, 256, "-num-threads", "a thread count", &d->bundle.num_threads);
    else if (mc && (v = glow_option_match(argc, argv, &i, "relocation-model", 1))) {
      if (!strcmp(v, "pic") || !strcmp(v, "static"))
        d->bundle.target.pic = !strcmp(v, "pic");
      else {
        glow_error("-relocation-model", "'%s' is not pic or static", v);
        bad = 1;
      }
    } else if (mc && glow_option_match(argc, argv, &i, "g", 0))
      d->bundle.debug_info = 1;
    else if (mc && glow_option_match(argc, argv, &i, "instrument-ir", 0))
      d->bundle.instrument_ir = 1;
    else if (mc && glow_option_match(argc, argv, &i, "instrument-debug", 0))
      d->bundle.instrument_debug = 1;
    else if (mc && (v = glow_option_match(argc, argv, &i, "instrument-debug-dir", 1)))
      d->bundle.instrument_debug_dir = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "instrument-debug-format", 1)))
      d->bundle.instrument_debug_format = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "instrument-debug-only", 1)))
      d->bundle.instrument_debug_only = v;
    else if (mc && glow_parse_quant_option(argc, argv, &i, d, &bad))
      ;
    else if ((v = glow_option_match(argc, argv, &i, "model-input", 1)))
      bad |= add_model_input(d, v) != 0;
    else if ((v = glow_option_match(argc, argv, &i, "onnx-define-symbol", 1)))
      bad |= add_symbol(d, v) != 0;
    else if ((v = glow_option_match(argc, argv, &i, "bind-input", 1))) {
      if (!strchr(v, ',')) {
        glow_error("-bind-input", "'%s' is not <input name>,<tensor.pb>", v);
        bad = 1;
      }
      d->bind = glow_xrealloc(d->bind, sizeof *d->bind * (size_t)(d->nbind + 1));
      d->bind[d->nbind++] = v;
    } else if (mc && (v = glow_option_match(argc, argv, &i, "cache-dir", 1)))
      d->cache_dir = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "remote-cache", 1))) {
      char err[256];
      if (glow_http_url_check(v, err, sizeof err)) {
        glow_error("-remote-cache", "%s", err);
        bad = 1;
      }
      d->remote_cache = v;
    } else if (mc && (v = glow_option_match(argc, argv, &i, "dump-graph-DAG", 1)))
      d->dot_file = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "dump-after", 1)))
      d->passes.dump_after = v;
    else if (mc && (v = glow_option_match(argc, argv, &i, "disable-pass", 1)))
      add_names(v, &d->passes.disabled, &d->passes.ndisabled);
    else if ((v = glow_option_match(argc, argv, &i, "load-pass", 1))) {
      d->load_pass = glow_xrealloc(d->load_pass, sizeof *d->load_pass * (size_t)(d->nload_pass + 1));
      d->load_pass[d->nload_pass++] = v;
    } else if ((v = glow_option_match(argc, argv, &i, "pass", 1)))
      add_names(v, &d->pass_names, &d->npass_names);
    else if (mc && glow_option_match(argc, argv, &i, "print-passes", 0))
      d->print_passes = 1;
    else if (glow_option_match(argc, argv, &i, "verbose", 0))
      d->verbose = d->passes.verbose = d->bundle.verbose = 1;
    else if (glow_option_match(argc, argv, &i, "help", 0) || glow_option_match(argc, argv, &i, "h", 0))
      d->help = 1;
    else if (glow_option_match(argc, argv, &i, "version", 0))
      d->version = 1;
    else {
      glow_error(NULL, "unknown option '%s' (see -help)", argv[i]);
      bad = 1;
    }
  }
  if (!bad && glow_check_disabled_passes(&d->passes))
    bad = 1;
  if (!bad && (d->nload_pass || d->npass_names) && !d->help && !d->version) {
    d->plugins = glow_plugins_load(d->nload_pass, d->load_pass, d->npass_names, d->pass_names);
    d->passes.plugins = d->plugins;
    bad = !d->plugins;
  }
  if (bad || d->help || d->version || d->print_passes)
    return bad ? -1 : 0;
  if (!d->model) {
    glow_error(NULL, "no model given: pass -model=<file.onnx> or -model=<Caffe2 folder> (see -help)");
    return -1;
  }
  if (ic)
    return 0;
  if (!d->dump_profile && !mc) {
    glow_error(NULL, "no profile file given: pass -dump-profile=<file.yml> (see -help)");
    return -1;
  }
  if (!d->dump_profile && d->ndatasets) {
    glow_error("-input-dataset", "calibration data is for profiling: pass -dump-profile=<file.yml> too (see -help)");
    return -1;
  }
  if (d->dump_profile) {
    if (d->out_dir) {
      glow_error("-dump-profile", "profiling runs the model in glowc's interpreter and emits no bundle: drop "
                                  "-emit-bundle (or compile in a second run)");
      return -1;
    }
    return 0;
  }
  if (!d->out_dir) {
    glow_error(NULL, "no output directory given: pass -emit-bundle=<dir> (see -help)");
    return -1;
  }
  if (d->quant_set && !d->load_profile) {
    glow_error("-load-profile", "the quantization options need a profile: pass -load-profile=<file.yml> (see -help)");
    return -1;
  }
  if (d->quant.int16 && d->quant.calibration_kl) {
    glow_error("-quantization-calibration", "KL picks ranges for 8 bits (its histograms have 2000 bins, fewer than "
                                            "int16's 65536 steps): use it with -quantization-precision=Int8");
    return -1;
  }
  if (!d->cache_dir && getenv("GLOWC_CACHE_DIR") && *getenv("GLOWC_CACHE_DIR"))
    d->cache_dir = getenv("GLOWC_CACHE_DIR");
  if (!d->bundle.network_name)
    d->bundle.network_name = d->owned_name = default_name(d->model);
  if (!valid_ident(d->bundle.network_name)) {
    glow_error("-network-name", "'%s' is not a C identifier (letters, digits and '_', not starting with a digit)",
               d->bundle.network_name);
    return -1;
  }
  if (d->bundle.entry_name && !valid_ident(d->bundle.entry_name)) {
    glow_error("-main-entry-name", "'%s' is not a C identifier", d->bundle.entry_name);
    return -1;
  }
  if (!d->bundle.target.triple)
    d->bundle.target.triple = d->owned_triple = glow_default_triple();
  /* A bundle for the machine glowc runs on gets that machine's CPU unless -mcpu
   * says otherwise; a cross target keeps its portable baseline. */
  if (!d->bundle.target.cpu && glow_triple_is_host(d->bundle.target.triple))
    d->bundle.target.cpu = "native";
  if (!d->bundle.weights)
    d->bundle.weights = GLOW_WEIGHTS_BIN | (d->bundle.dynamic_api ? 0 : GLOW_WEIGHTS_TXT);
  if (d->zst_level_set && !(d->bundle.weights & GLOW_WEIGHTS_ZST)) {
    glow_error("-weights-compression-level", "only -weights=zst (or embedded,zst) is compressed; add zst to -weights");
    return -1;
  }
  if (!d->bundle.zst_level)
    d->bundle.zst_level = 3;
  if (!d->bundle.num_threads)
    d->bundle.num_threads = 1;
  return 0;
}

void glow_driver_options_free(glow_driver_options *d) {
  glow_import_options *o = &d->import;
  for (int i = 0; i < o->ninputs; i++)
    free((char *)o->input_names[i]);
  for (int i = 0; i < o->nsymbols; i++)
    free((char *)o->symbol_names[i]);
  free(o->input_names);
  free(o->input_types);
  free(o->input_ranks);
  free(o->input_dims);
  free(o->symbol_names);
  free(o->symbol_values);
  for (int i = 0; i < d->passes.ndisabled; i++)
    free((char *)d->passes.disabled[i]);
  free(d->passes.disabled);
  for (int i = 0; i < d->npass_names; i++)
    free((char *)d->pass_names[i]);
  free(d->pass_names);
  free(d->load_pass);
  glow_plugins_free(d->plugins);
  free(d->bind);
  free(d->datasets);
  free(d->images);
  free(d->owned_name);
  free(d->owned_triple);
}
