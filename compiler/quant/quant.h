/* Quantization profiles: the range and histogram of every float value of a
 * graph, gathered by running it in the reference interpreter over calibration
 * inputs, saved and loaded in Glow's YAML schema so that profiles move between
 * Glow and glowc. Host-only, like the rest of compiler/.
 *
 *   glow_profiler *pr = glow_profiler_create(g, 0); // g after glow_run_passes(); 0: 2000 bins
 *   for (each sample)
 *     glow_profiler_run(pr, inputs);               // one tensor per graph input
 *   glow_profile_save(glow_profiler_profile(pr), "profile.yml");
 *   glow_profiler_free(pr);
 *
 *   glow_profile *p = glow_profile_load("profile.yml");
 *   if (!p || glow_profile_check(p, g, "profile.yml"))  // names every mismatch
 *     fail;
 *   const glow_profile_entry *e = glow_profile_find(p, g->vals[id].name);
 *   ... e->min, e->max, e->hist[0 .. e->nbins) ...
 *   glow_profile_free(p);
 *
 * The file, as Glow writes it (lib/Quantization/Serialization.cpp): three YAML
 * documents, a mapping {GlowToolsVersion: <string>}, a mapping
 * {GraphPreLowerHash: <hex64>}, then a sequence of
 * {NodeOutputName: <string>, Min: <float>, Max: <float>, Histogram: [<count>...]}.
 * glowc writes the entries sorted by name (bytewise), floats with "%.9g" (which
 * reads back to the same float) and counts as integers, so the same inputs
 * always give the same bytes.
 *
 * Which values: every value glow_interp_observes() (non-constant, float) that
 * is a graph input or the output of a live node, named and first with its name
 * in the interpreter's order (a graph output that is also an input is copied by
 * materialize-outputs under the same name; both hold the same numbers).
 * NodeOutputName is the ONNX value name followed by ":0": Glow names a node
 * output "<node name>:<result number>", and its ONNX loader names a graph input
 * and a node without a name after the value, so the names agree wherever the
 * two tools agree on what a value is. The ":0" is never stripped or guessed at:
 * an entry matches a value exactly or not at all. */
#ifndef GLOWC_QUANT_H
#define GLOWC_QUANT_H

#include "glowc.h"

/* Histogram bins per value unless -num-histogram-bins says otherwise: enough
 * for KL calibration (Glow's tools default to 10, see glow_quant_kl_range). */
#define GLOW_PROFILE_BINS 2000
/* Counts one histogram of a profile may hold when read (Glow's and glowc's have 2000). */
#define GLOW_PROFILE_MAX_BINS (1 << 20)

typedef struct glow_profile_entry {
  char *name;    /* NodeOutputName: "<ONNX value name>:0" */
  float min, max;
  int nbins;     /* the profiler's bin count when glowc wrote it; any count when read */
  double *hist;  /* nbins counts over [min, max] in equal bins; the last bin holds max */
} glow_profile_entry;

typedef struct glow_profile {
  char *tools_version;   /* GlowToolsVersion: "glowc <version>", a Glow build date, or "" */
  int has_hash;          /* GraphPreLowerHash present (Glow before 2020 wrote none) */
  uint64_t graph_hash;   /* glow_graph_hash() when glowc wrote it; Glow's own hash otherwise */
  int nentries;
  glow_profile_entry *entries; /* sorted by name (strcmp) */
} glow_profile;

/* quant/profile-collect.c */
typedef struct glow_profiler glow_profiler;
/* An empty profile of g's values (see above) whose histograms have nbins bins
 * (GLOW_PROFILE_BINS when nbins <= 0); g must outlive the profiler. */
glow_profiler *glow_profiler_create(const glow_graph *g, int nbins);
/* Runs one sample through the interpreter and adds every value to its entry:
 * min and max over the finite elements (NaN and infinities are skipped), and
 * the histogram as Glow builds it: the first sample's range is split in
 * the profiler's bins; when a later one widens the range, each old bin's
 * count moves to the one or two new bins it overlaps, split in proportion and
 * rounded to whole counts. inputs: one per graph input, in graph-input order,
 * dense, with the input's dtype and element count.
 * @return 0, or -1 after the interpreter's error. */
int glow_profiler_run(glow_profiler *pr, const glow_tensor *inputs);
int glow_profiler_samples(const glow_profiler *pr);
/* The profile so far (owned by the profiler). A value that never held a finite
 * number has Min = Max = 0 and an all-zero histogram. */
const glow_profile *glow_profiler_profile(const glow_profiler *pr);
void glow_profiler_free(glow_profiler *pr); /* NULL ok */
/* The names of g's profiled values, in the interpreter's order: *ids[*n]
 * (malloc'd). Unnamed values and later values with an earlier one's name are
 * left out. */
void glow_profile_values(const glow_graph *g, int **ids, int *n);

/* quant/profile-write.c */
/* The YAML text of p, appended to out.
 * @return 0, or -1 after an error (libyaml refuses a name that is not UTF-8). */
int glow_profile_emit(const glow_profile *p, glow_strbuf *out);
/* Writes p to path through a temporary file renamed into place, so a failure
 * leaves no file. @return 0, or -1 after "path: error: ...". */
int glow_profile_save(const glow_profile *p, const char *path);
/* Reads a profile written by glowc or Glow (with or without the
 * GlowToolsVersion and GraphPreLowerHash documents). Histograms may have any
 * number of bins up to GLOW_PROFILE_MAX_BINS; counts may be fractional. YAML
 * aliases are refused. Memory: the entries' names and counts (8 bytes each).
 * @return the profile (free with glow_profile_free), or NULL after an error
 * "path:line: error: ..." for a file that is not such a profile. */
glow_profile *glow_profile_load(const char *path);
/* The same from bytes in memory; path only names them in messages. */
glow_profile *glow_profile_parse(const void *data, size_t size, const char *path);
void glow_profile_free(glow_profile *p); /* NULL ok */

/* quant/profile-check.c */
/* A digest of the graph that profiles are taken from (after glow_run_passes):
 * the graph inputs and outputs, and for every live node in order its op, its
 * attributes and each input and output value's name, dtype, shape and, for
 * constants, bytes. Node names and the model's path are left out. The first 8
 * bytes of a SHA-256, read big-endian. */
uint64_t glow_graph_hash(const glow_graph *g);
/* The entry of the value named value_name (its NodeOutputName is
 * "<value_name>:0"), or NULL. */
const glow_profile_entry *glow_profile_find(const glow_profile *p, const char *value_name);
/* Checks that p fits g: every profiled value of g has an entry and every entry
 * names a profiled value of g.
 * @return 0 if so (when the names match but p was written by glowc with another
 * GraphPreLowerHash, the graph changed in other ways, e.g. its weights, and a
 * warning says the ranges may be stale; the hash of a Glow-written profile is
 * Glow's own and is not compared); -1 after one error "path: error: ..." that
 * lists every missing and every unexpected name. */
int glow_profile_check(const glow_profile *p, const glow_graph *g, const char *path);

/* quant/profile-glow-names.c */
/* Whether p was written by Glow (or another tool): its GlowToolsVersion is not glowc's. */
int glow_profile_is_glows(const glow_profile *p);
/* A Glow-written profile as glowc names it: an entry "<value>:0" for every
 * profiled value of g, taken from the entry Glow wrote for the Glow node that
 * computes it (Glow names entries after its own, legalized and lowered node
 * names; the file says how they are matched), or under the value's own name.
 * Glow's entries for its own nodes (transposes, splats, constants) are dropped.
 * @return the new profile (free with glow_profile_free), or NULL after an
 * error "path: error: ..." naming every value with no entry and what was sought. */
glow_profile *glow_profile_from_glow(const glow_profile *p, const glow_graph *g, const char *path, int verbose);

/* quant/quantize.c: the float graph into QLinearConv / QLinearMatMul / int8 MaxPool
 * with QuantizeLinear and DequantizeLinear between, from a checked profile
 * (int16 instead of int8 with -quantization-precision=Int16). */
typedef enum {
  GLOW_QUANT_ASYMMETRIC,      /* [min, max] on [-128, 127], any zero point */
  GLOW_QUANT_SYMMETRIC,       /* [-a, a], zero point 0 */
  GLOW_QUANT_SYMMETRIC_UINT8, /* symmetric, or [0, max] on [-128, 127] when min >= 0 */
  GLOW_QUANT_SYMMETRIC_POW2,  /* symmetric with a power-of-2 scale */
} glow_quant_schema;
typedef struct glow_quant_options {
  const char *profile_path; /* -load-profile, for messages */
  glow_quant_schema schema; /* -quantization-schema */
  int int16;                /* -quantization-precision=Int16: int16 activations and weights */
  int bias_precision;       /* -quantization-precision-bias: 0 Int32, 1 Int8 (biases rounded to 8 bits), 2 Int16 */
  int channelwise;          /* -enable-channelwise: a weight scale per output channel */
  int calibration_kl;       /* -quantization-calibration=KL: ranges clipped by minimum KL divergence */
  int calibrate_constants;  /* -calibrate-constants: weights' ranges clipped by KL too */
  int rowwise;              /* -enable-rowwise: a weight scale per output row of each MatMul and Gemm */
  const char *keep_kinds;   /* -keep-original-precision-for-nodes: ONNX op names, comma-separated */
  int verbose;
  int assert_all;           /* -assert-all-nodes-quantized */
  const char *model;        /* -model, for assert-quantized's message */
} glow_quant_options;
/* @return 0, or -1 after an error naming the value with no range. */
int glow_pass_quantize(glow_graph *g, const glow_profile *p, const glow_quant_options *o);
/* Whether nodes of op stay in float (-keep-original-precision-for-nodes). */
int glow_quant_kept(const glow_quant_options *o, glow_op op);

/* quant/quantize-profile.c: the quant stage's "quantize" pass: o->quant's profile read
 * (Glow's names made glowc's) and checked against g, then glow_pass_quantize. @return 0,
 * or -1 after the profile's or the quantizer's errors. */
int glow_pass_quantize_profile(glow_graph *g, const glow_pass_options *o);

/* quant/assert-quantized.c */
/* -assert-all-nodes-quantized, on g after glow_pass_quantize and dead-nodes:
 * @return 0 when no node computes in floating point but those of kept kinds and
 * those doing no arithmetic (conversions, views, copies); else -1 after one
 * error "model: error: ..." naming every such node and its op. */
int glow_quant_assert_all(const glow_graph *g, const glow_quant_options *o, const char *model);
/* The quant stage's last pass: g verified, then glow_quant_assert_all with o->quant->assert_all. */
int glow_pass_assert_quantized(glow_graph *g, const glow_pass_options *o);

/* quant/quant-params.c */
/* The scale and zero point of an int8 or int16 (dt) value over [lo, hi] under a
 * schema: 255 or 65535 steps, zero always exact. */
void glow_quant_params(float lo, float hi, glow_quant_schema s, glow_dtype dt, float *scale, int *zp);
/* Symmetric weights (zero point 0) of dt int8 (-127..127) or int16
 * (-32767..32767): rows x per floats w into wq, scales[rows] (one shared scale
 * unless channelwise: one per row, the output channel). A shared scale covers
 * |w| up to limit when limit > 0 (-calibrate-constants), the weights beyond it
 * saturating; else the largest |w|. */
void glow_quant_weights(const float *w, int64_t rows, int64_t per, int channelwise, float limit, glow_dtype dt,
                        void *wq, float *scales);
/* -quantization-precision-bias=Int8 or Int16 (dt int8 or int16): each of b[n] as
 * the nearest value such a bias can hold (scale and zero point from b's own range
 * under schema s, as Glow quantizes narrow biases), into out. */
void glow_quant_bias_grid(const float *b, int64_t n, glow_quant_schema s, glow_dtype dt, float *out);
/* int32 biases at the accumulator's scale, xs * ws[k], saturated.
 * @return how many saturated. */
int64_t glow_quant_bias(const float *b, int64_t m, float xs, const float *ws, int32_t *bq);

/* quant/calibrate-kl.c */
/* Bins a histogram needs for KL calibration: int8's 255 steps (Glow's rule). */
#define GLOW_KL_MIN_BINS 255
/* The range [*lo, *hi] within e's that loses least information when quantized to
 * 8 bits: the clipping threshold with the smallest KL divergence between the
 * histogram and its quantization to `levels` steps over [0, threshold] (TensorRT's
 * entropy calibration). e's own range when it has fewer than GLOW_KL_MIN_BINS
 * bins. */
void glow_quant_kl_range(const glow_profile_entry *e, int levels, float *lo, float *hi);
/* -calibrate-constants: the |w| at which n weights are clipped, from a histogram
 * of their values in GLOW_PROFILE_BINS bins, calibrated as above (symmetric).
 * At most max |w[i]|. */
float glow_quant_kl_weights(const float *w, int64_t n);

/* quant/fold-qdq.c: pre-quantized ONNX's DequantizeLinear -> Conv/MatMul ->
 * QuantizeLinear patterns into QLinearConv/QLinearMatMul (a pass of the pipeline). */
int glow_pass_fold_qdq(glow_graph *g, const glow_pass_options *o);
/* quant/fold-lookup.c: activations between int8 (De)QuantizeLinear, and QLinearMul by them, as IntLookupTable. */
int glow_pass_fold_lookup(glow_graph *g, const glow_pass_options *o);

#endif
