/* -help, made from options.def: each tool's usage lines and what it does, then
 * its options in the table's order, then Glow's options it refuses. */
#include <stdlib.h>
#include <string.h>

#include "driver/option-table.h"

static const char *intro_compiler =
    "USAGE: model-compiler -model=<file.onnx|.tflite> -emit-bundle=<dir> [options]\n"
    "       model-compiler -model=<model> -dump-profile=<file.yml> -input-dataset=... [options]\n"
    "       model-compiler -model=<Caffe2 dir> -model-input=<name>,float,[d0,...] -emit-bundle=<dir>\n"
    "\n"
    "Compiles an ONNX, TFLite or Caffe2 model into a bundle: <dir>/<name>.o, <name>.h and\n"
    "<name>.weights.bin (plus <name>.weights.txt with -bundle-api=static; see -weights),\n"
    "following Glow's bundle ABI and taking Glow's options. With -dump-profile it writes a\n"
    "quantization profile instead, as model-profiler does.\n";

static const char *intro_profiler =
    "USAGE: model-profiler -model=<file.onnx|.tflite> -dump-profile=<file.yml>\n"
    "                      -input-dataset=<input>,rawbin|rawtxt,<file or dir> [options]\n"
    "\n"
    "Runs an ONNX, TFLite or Caffe2 model in glowc's reference interpreter over\n"
    "calibration samples and writes the range (Min, Max) and a histogram of every float\n"
    "value as a quantization profile in Glow's YAML format (Glow's tools read it too).\n"
    "Values are named '<ONNX value, TFLite tensor or Caffe2 blob name>:0'. The same\n"
    "model, options and samples give the same bytes; on a terminal, progress goes to\n"
    "stderr.\n";

static const char *outro_profiler =
    "\n"
    "Compile with the same -model-input, -onnx-define-symbol, -bind-input, -load-pass and\n"
    "-pass options, so that the profile's names match the model's.\n";

static const char *intro_classifier =
    "USAGE: image-classifier <image.png>... -m=<model> -model-input-name=<name> [options]\n"
    "       image-classifier <image.png>... -m=<model> -dump-profile=<file.yml> [options]\n"
    "\n"
    "Classifies PNG images with a model run in glowc's reference interpreter and prints\n"
    "each image's top labels as Glow's image-classifier does; with -dump-profile it\n"
    "writes the quantization profile of the model over the images instead.\n"
    "\n"
    "Images: PNG, grey (one channel) or colour (RGB; alpha is dropped); palette, 1-16-bit\n"
    "and interlaced PNGs are converted to 8-bit grey or RGB. Every image must have the\n"
    "size and channels of the model's input. The images are those listed on the command\n"
    "line, then those of -input-image-dir, then those of -input-image-list-file; each\n"
    "run of the model in glowc's reference interpreter takes -minibatch of them\n"
    "(compiled bundles: model-compiler). For a Caffe2 model the input is float[N,C,H,W]\n"
    "(or [N,H,W,C]) from the images; an ONNX model's input must have that shape, its\n"
    "batch dimension aside. The output must have the batch first and one other\n"
    "dimension above 1 (the labels).\n"
    "\n"
    "Each image prints \" File: <path>\\tLabel-K1: <label> (probability: <score>)\", and a\n"
    "line per further label, as Glow prints them, after \"Model: <dir>\" and \"Running 1\n"
    "thread(s).\". With -dump-profile the images are the calibration samples (one per\n"
    "run) and nothing is printed per image; the profile is written only when every run\n"
    "ended, in model-profiler's format: compile with the same -model-input shape. With\n"
    "-load-profile the model is quantized first, as model-compiler quantizes it.\n";

/* One option: "  -name=<meta>" in a 30-column field, then its help, lines aligned. */
static void print_option(const glow_option *o, FILE *f) {
  char head[160];
  int n = snprintf(head, sizeof head, "  -%s%s%s", o->name, o->meta ? "=" : "", o->meta ? o->meta : "");
  fputs(head, f);
  if (n > 29)
    fputs("\n", f), n = 0;
  fprintf(f, "%*s", 30 - n, "");
  char *triple = strstr(o->help, "%s") ? glow_default_triple() : NULL;
  for (const char *p = o->help; *p;) {
    size_t len = strcspn(p, "\n");
    const char *pct = triple ? strstr(p, "%s") : NULL;
    if (pct && pct < p + len)
      fprintf(f, "%.*s%s%.*s", (int)(pct - p), p, triple, (int)(p + len - pct - 2), pct + 2);
    else
      fprintf(f, "%.*s", (int)len, p);
    fputs("\n", f);
    p += len;
    if (*p == '\n' && *++p)
      fprintf(f, "%30s", "");
  }
  free(triple);
}

void glow_driver_usage(glow_driver_tool tool, FILE *f) {
  unsigned bit = tool == GLOW_TOOL_COMPILER ? GLOW_FOR_COMPILER
                 : tool == GLOW_TOOL_PROFILER ? GLOW_FOR_PROFILER
                                              : GLOW_FOR_CLASSIFIER;
  fputs(tool == GLOW_TOOL_COMPILER ? intro_compiler : tool == GLOW_TOOL_PROFILER ? intro_profiler : intro_classifier,
        f);
  fputs("\nOPTIONS:\n", f);
  for (int i = 0; i < glow_noptions; i++)
    if ((glow_options[i].tools & bit) && glow_options[i].kind != GLOW_OPT_REFUSED)
      print_option(&glow_options[i], f);
  fputs("\nGlow's options that glowc refuses (each error says why and what to use):\n", f);
  int col = 0;
  for (int i = 0; i < glow_noptions; i++) {
    const glow_option *o = &glow_options[i];
    if (!(o->tools & bit) || o->kind != GLOW_OPT_REFUSED)
      continue;
    int w = (int)strlen(o->name) + 2;
    if (col && col + w > 88)
      fputs("\n", f), col = 0;
    fprintf(f, "%s-%s", col ? " " : "  ", o->name);
    col += w + (col ? 1 : 1);
  }
  fputs("\n", f);
  if (tool == GLOW_TOOL_PROFILER)
    fputs(outro_profiler, f);
}
