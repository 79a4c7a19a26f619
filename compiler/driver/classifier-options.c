/* image-classifier's options that the shared option table (options.def) does not hold
 * yet, taken out of argv before the shared parser runs: Glow's preprocessing and
 * printing options glowc implements, and Glow's loader options that make no sense for
 * glowc's interpreter, refused with what to use instead. To move into options.def. */
#include <stdlib.h>
#include <string.h>

#include "driver/image-classifier.h"

/* Glow's image-classifier options glowc does not take, and why. */
static const struct {
  const char *name, *why;
} refused[] = {
    {"emit-bundle", "image-classifier runs the model in glowc's interpreter and writes no bundle: use model-compiler"},
    {"network-name", "image-classifier writes no bundle: use model-compiler -emit-bundle"},
    {"main-entry-name", "image-classifier writes no bundle: use model-compiler -emit-bundle"},
    {"bundle-api", "image-classifier writes no bundle: use model-compiler -emit-bundle"},
    {"target", "image-classifier runs on this machine in glowc's interpreter: compile for a target with model-compiler"},
    {"mcpu", "image-classifier runs on this machine in glowc's interpreter: compile for a CPU with model-compiler"},
    {"mattr", "image-classifier runs in glowc's interpreter: code generation options belong to model-compiler"},
    {"march", "image-classifier runs in glowc's interpreter: code generation options belong to model-compiler"},
    {"dump-graph-DAG", "use model-compiler -dump-graph-DAG=<file.dot> (the same graph)"},
    {"dump-graph-DAG-before-compile", "use model-compiler -dump-graph-DAG-before-compile=<file.dot>"},
    {"dump-graph", "use model-compiler -dump-graph (the same graph)"},
    {"input-tensor-list-file", "for tensors use model-profiler -input-dataset (profiles) or glowc-run (outputs)"},
    {"input-layout", "it is the layout of .npy tensors; image-classifier reads PNG images (see -image-layout)"},
    {"input-values-range", "PNG images are 8-bit: their range is always U8 (Glow ignores it for images too)"},
    {"minibatch-threads", "glowc's interpreter runs one minibatch at a time: drop the option"},
    {"num-devices", "glowc's interpreter runs on one thread of this machine: drop the option"},
    {"run-all-inputs-on-all-devices", "glowc's interpreter runs on one thread of this machine: drop the option"},
    {"pool-size", "image-classifier has no benchmark mode: time a bundle with glowc-run -runs=<N>"},
    {"time", "image-classifier has no benchmark mode: time a bundle with glowc-run -runs=<N>"},
    {"iterations", "image-classifier has no benchmark mode: time a bundle with glowc-run -runs=<N>"},
    {"warmup", "image-classifier has no benchmark mode: time a bundle with glowc-run -runs=<N>"},
    {"excluded-first-warmup-runs", "image-classifier has no benchmark mode: time a bundle with glowc-run -runs=<N>"},
    {"preload-all-images", "images are read one minibatch at a time; drop the option"},
    {"repeat-single-batch-count", "image-classifier runs each image once; list an image several times instead"},
    {"trace-path", "glowc's interpreter writes no traces: use -verbose, or model-compiler -instrument-ir"},
    {"trace-level", "glowc's interpreter writes no traces: use -verbose, or model-compiler -instrument-ir"},
    {"auto-instrument", "glowc's interpreter writes no traces: use model-compiler -instrument-ir"},
    {"assert-all-nodes-quantized", "use it with model-compiler -load-profile (the same quantized graph)"},
};

/* argv[i] is -name, -name=... or --name... */
static int is_option(const char *arg, const char *name) {
  if (*arg != '-')
    return 0;
  arg += arg[1] == '-' ? 2 : 1;
  size_t n = strlen(name);
  return !strncmp(arg, name, n) && (!arg[n] || arg[n] == '=');
}

/* "a,b,c" of non-negative integers appended to co->expected: 1 after an error. */
static int add_expected(glow_classifier_options *co, const char *v) {
  for (const char *s = v;;) {
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || x < 0 || x > 1L << 30 || (*end && *end != ',')) {
      glow_error("-expected-labels", "'%s' is not a comma list of labels (non-negative integers)", v);
      return 1;
    }
    co->expected = glow_xrealloc(co->expected, sizeof *co->expected * (size_t)(co->nexpected + 1));
    co->expected[co->nexpected++] = (int)x;
    if (!*end)
      return 0;
    s = end + 1;
  }
}

int glow_classifier_prescan(int argc, char **argv, int *nargc, char ***nargv, glow_classifier_options *co) {
  memset(co, 0, sizeof *co);
  char **out = glow_xcalloc((size_t)argc + 1, sizeof *out);
  int n = 0, bad = 0;
  for (int i = 0; i < argc; i++) {
    const char *v;
    char *a = argv[i];
    if (i == 0 || *a != '-' || !a[1]) {
      if (i && !strcmp(a, "-")) {
        glow_error("-", "Glow's streaming mode (file names read from stdin) is not supported: list the images on the "
                        "command line or give -input-image-dir");
        bad = 1;
      }
      out[n++] = a;
    } else if ((v = glow_option_match(argc, argv, &i, "mean", 1)))
      co->mean = v;
    else if ((v = glow_option_match(argc, argv, &i, "stddev", 1)))
      co->stddev = v;
    else if (glow_option_match(argc, argv, &i, "use-imagenet-normalization", 0))
      co->imagenet = 1;
    else if (glow_option_match(argc, argv, &i, "compute-softmax", 0))
      co->compute_softmax = 1;
    else if ((v = glow_option_match(argc, argv, &i, "label-offset", 1))) {
      char *end;
      long x = strtol(v, &end, 10);
      if (!*v || *end || x < 0 || x > 1L << 30) {
        glow_error("-label-offset", "'%s' is not a non-negative integer", v);
        bad = 1;
      }
      co->label_offset = (int)x;
    } else if ((v = glow_option_match(argc, argv, &i, "expected-labels", 1)))
      bad |= add_expected(co, v);
    else if ((v = glow_option_match(argc, argv, &i, "output-name", 1)))
      co->output_name = v;
    else if ((v = glow_option_match(argc, argv, &i, "input-image-list-file", 1))) {
      if (co->image_list || strchr(v, ',')) {
        glow_error("-input-image-list-file", "one list file (image-classifier feeds one input)");
        bad = 1;
      }
      co->image_list = v;
    } else if (is_option(a, "topk") && !strcmp(a + strcspn(a, "="), "=0"))
      co->topk_zero = 1; /* Glow's -topk=0 prints nothing; the shared parser starts at 1 */
    else {
      size_t k = 0;
      while (k < sizeof refused / sizeof refused[0] && !is_option(a, refused[k].name))
        k++;
      if (k < sizeof refused / sizeof refused[0]) {
        char where[64];
        snprintf(where, sizeof where, "-%s", refused[k].name);
        glow_error(where, "not taken by glowc's image-classifier: %s", refused[k].why);
        bad = 1;
        continue;
      }
      co->minibatch_given |= is_option(a, "minibatch");
      out[n++] = a; /* for the shared parser (a separate value follows as it came) */
    }
  }
  *nargc = n;
  *nargv = out;
  return bad ? -1 : 0;
}

void glow_classifier_options_free(glow_classifier_options *co) { free(co->expected); }

void glow_classifier_usage(FILE *f) {
  fputs("\nAlso, Glow's options for preprocessing and printing:\n"
        "  -mean=<m>[,<m>,<m>]         Subtracted from each channel's 8-bit value before the\n"
        "                              -image-mode scaling, one per channel in the\n"
        "                              -image-channel-order order (default: 0).\n"
        "  -stddev=<s>[,<s>,<s>]       Divides each channel after -mean (default: 1).\n"
        "  -use-imagenet-normalization Mean 0.485,0.456,0.406 x 255 and stddev\n"
        "                              0.229,0.224,0.225, applied as Glow applies them (in\n"
        "                              the tensor's channel order).\n"
        "  -compute-softmax            Softmax of the output before the top labels are picked.\n"
        "  -label-offset=<N>           Subtracted from each printed label.\n"
        "  -expected-labels=<l>,...    One label per image: each image whose top -topk labels\n"
        "                              miss it is reported; the exit status is the count.\n"
        "  -output-name=<name>         The output whose labels are printed (for models with\n"
        "                              several).\n"
        "  -input-image-list-file=<file>\n"
        "                              Images listed one path a line, after any given on\n"
        "                              the command line.\n"
        "  -topk=0                     Prints no labels (Glow's -topk=0).\n"
        "\n"
        "Images: PNG, grey (one channel) or colour (RGB; alpha is dropped); palette, 1-16-bit\n"
        "and interlaced PNGs are converted to 8-bit grey or RGB. Without -image-mode the\n"
        "values stay 0..255 (Glow's pass-through). Every image must have the\n"
        "size and channels of the model's input. The images are listed on the command line,\n"
        "then those of -input-image-dir (every file not starting with '.', in name order),\n"
        "then those of -input-image-list-file. The number of images must be a multiple of\n"
        "-minibatch (Glow's default: 1; 0: all in one batch), and each batch is one run of\n"
        "the model in glowc's reference interpreter (compiled bundles: model-compiler). For\n"
        "a Caffe2 model the input is float[N,C,H,W] (or [N,H,W,C]) from the images; an ONNX\n"
        "model's input must have that shape, its batch dimension aside. The output must\n"
        "have the batch first and one other dimension above 1 (the labels).\n"
        "\n"
        "Each image prints \" File: <path>\\tLabel-K1: <label> (probability: <score>)\", and a\n"
        "line per further label, as Glow prints them, after \"Model: <dir>\" and \"Running 1\n"
        "thread(s).\". With -dump-profile the images are the calibration samples (one per\n"
        "batch) and nothing is printed per image; the profile is written only when every\n"
        "batch ran, in model-profiler's format: compile with the same -model-input shape.\n"
        "With -load-profile the model is quantized as model-compiler quantizes it first.\n",
        f);
  fputs("\nGlow's image-classifier options glowc also refuses:", f);
  for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
    fprintf(f, "%s -%s", k % 5 ? "" : "\n ", refused[k].name);
  fputs("\n", f);
}
