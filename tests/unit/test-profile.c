/* Quantization profiles: the interpreter's observer, the profiler's ranges and
 * histograms on tests/profile/tiny.onnx (x -> Relu -> r -> Mul 2 -> y -> Add b
 * -> s) with numbers worked out by hand below, the YAML text, round trips, a
 * profile in Glow's own formatting, and the checks against a graph with their
 * messages.
 *   test-profile <tiny.onnx> <glow-profile.yml> */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "glowc.h"
#include "quant/quant.h"

static int failures;
#define CHECK(c)                                                         \
  do {                                                                   \
    if (!(c)) {                                                          \
      printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);       \
      failures++;                                                        \
    }                                                                    \
  } while (0)

/* stderr of the code under test, kept to check the diagnostics. */
static char errtext[16384];
static int saved_fd = -1;
static FILE *errfile;
static void capture_begin(void) {
  fflush(stderr);
  errfile = tmpfile();
  saved_fd = dup(2);
  dup2(fileno(errfile), 2);
}
static const char *capture_end(void) {
  fflush(stderr);
  dup2(saved_fd, 2);
  close(saved_fd);
  rewind(errfile);
  size_t n = fread(errtext, 1, sizeof errtext - 1, errfile);
  errtext[n] = 0;
  fclose(errfile);
  printf("%s", errtext);
  return errtext;
}

static glow_graph *load_tiny(const char *path) {
  glow_import_options io;
  memset(&io, 0, sizeof io);
  glow_graph *g = glow_import_onnx(path, &io);
  glow_pass_options po = {0};
  GLOW_ASSERT(g && !glow_run_passes(g, &po, GLOW_PASS_GRAPH));
  return g;
}

/* tiny.onnx's inputs: x float[1,6], b float[6]. */
static void sample(glow_tensor in[2], float *x, float *b) {
  in[0] = (glow_tensor){GLOW_DT_F32, 2, {1, 6}, x};
  in[1] = (glow_tensor){GLOW_DT_F32, 1, {6}, b};
}

typedef struct {
  int ids[16], n;
} seen_ids;
static void record(void *ctx, const glow_graph *g, int id, const void *data) {
  (void)g, (void)data;
  seen_ids *s = ctx;
  if (s->n < 16)
    s->ids[s->n++] = id;
}

static void test_observer(const glow_graph *g) {
  float x[6] = {-1, 2, -3, 4, -5, 6}, b[6] = {1, 1, 1, 1, 1, 1};
  glow_tensor in[2], out1[1], out2[1];
  sample(in, x, b);
  seen_ids s = {{0}, 0};
  CHECK(!glow_interp_run(g, in, out1));
  CHECK(!glow_interp_run_observed(g, in, out2, record, &s));
  CHECK(!memcmp(out1[0].data, out2[0].data, sizeof x));
  CHECK(((float *)out2[0].data)[1] == 5 && ((float *)out2[0].data)[2] == 1);
  free(out1[0].data);
  free(out2[0].data);
  /* Inputs, then node outputs in node order; the constant 'two' is not seen. */
  const char *want[] = {"x", "b", "r", "y", "s"};
  CHECK(s.n == 5);
  for (int i = 0; i < s.n && i < 5; i++)
    CHECK(!strcmp(g->vals[s.ids[i]].name, want[i]));
}

/* Only these bins are non-zero. */
typedef struct {
  int bin;
  double count;
} bin_count;
static void check_entry(const glow_profile *p, const char *value, float min, float max, const bin_count *bins, int n) {
  const glow_profile_entry *e = glow_profile_find(p, value);
  CHECK(e != NULL);
  if (!e)
    return;
  printf("  %s: min %g max %g\n", e->name, e->min, e->max);
  CHECK(e->min == min && e->max == max && e->nbins == GLOW_PROFILE_BINS);
  double *want = calloc(GLOW_PROFILE_BINS, sizeof *want);
  for (int i = 0; i < n; i++)
    want[bins[i].bin] = bins[i].count;
  for (int i = 0; i < GLOW_PROFILE_BINS; i++)
    if (e->hist[i] != want[i]) {
      printf("  %s: bin %d holds %g, expected %g\n", e->name, i, e->hist[i], want[i]);
      failures++;
    }
  free(want);
}

/* Sample A: x = {0, 0.5, 1, 250, 999.5, 1000}: range [0, 1000], bins 0.5 wide:
 * 0 -> 0, 0.5 -> 1, 1 -> 2, 250 -> 500, 999.5 -> 1999, 1000 -> 1999 (the last
 * bin holds max). r = x; y = 2x: [0, 2000], bins 1 wide, the same bins.
 * Sample B: x = {-1000, -500, 0, 0, 0, 0} widens x to [-1000, 1000], bins 1
 * wide: old bin i (from 0.5 i) lies inside new bin 1000 + i/2, so 0 and 1 ->
 * 1000, 2 -> 1001, 500 -> 1250, 1999 -> 1999; then -1000 -> 0, -500 -> 500 and
 * four 0 -> 1000. r and y are all 0 in B: six more in bin 0. b is 0 throughout
 * (a zero-width range: everything in bin 0) and s = y. */
static void test_by_hand(const glow_graph *g) {
  float xa[6] = {0, 0.5f, 1, 250, 999.5f, 1000}, xb[6] = {-1000, -500, 0, 0, 0, 0}, zero[6] = {0};
  glow_tensor in[2];
  glow_profiler *pr = glow_profiler_create(g, 0);
  sample(in, xa, zero);
  CHECK(!glow_profiler_run(pr, in));
  sample(in, xb, zero);
  CHECK(!glow_profiler_run(pr, in));
  CHECK(glow_profiler_samples(pr) == 2);
  const glow_profile *p = glow_profiler_profile(pr);
  CHECK(p->nentries == 5);
  const char *names[] = {"b:0", "r:0", "s:0", "x:0", "y:0"};
  for (int i = 0; i < 5 && i < p->nentries; i++)
    CHECK(!strcmp(p->entries[i].name, names[i]));
  check_entry(p, "x", -1000, 1000,
              (bin_count[]){{0, 1}, {500, 1}, {1000, 2 + 4}, {1001, 1}, {1250, 1}, {1999, 2}}, 6);
  bin_count ry[] = {{0, 1 + 6}, {1, 1}, {2, 1}, {500, 1}, {1999, 2}};
  check_entry(p, "r", 0, 1000, ry, 5);
  check_entry(p, "y", 0, 2000, ry, 5);
  check_entry(p, "s", 0, 2000, ry, 5);
  check_entry(p, "b", 0, 0, (bin_count[]){{0, 12}}, 1);
  CHECK(p->has_hash && p->graph_hash == glow_graph_hash(g));
  CHECK(!strcmp(p->tools_version, "glowc " GLOWC_VERSION));
  glow_profiler_free(pr);
}

/* NaN and infinities are left out: x keeps only 2 (one value: bin 0); r =
 * relu(x) turns -inf into 0, so r spans [0, 2]. */
static void test_nonfinite(const glow_graph *g) {
  float x[6] = {NAN, INFINITY, -INFINITY, 2, 2, 2}, zero[6] = {0};
  glow_tensor in[2];
  sample(in, x, zero);
  glow_profiler *pr = glow_profiler_create(g, 0);
  CHECK(!glow_profiler_run(pr, in));
  const glow_profile *p = glow_profiler_profile(pr);
  check_entry(p, "x", 2, 2, (bin_count[]){{0, 3}}, 1);
  check_entry(p, "r", 0, 2, (bin_count[]){{0, 1}, {1999, 3}}, 2);
  glow_profiler_free(pr);
}

static const char tiny_yaml[] = "---\n"
                                "GlowToolsVersion: glowc 0.1.0\n"
                                "...\n"
                                "---\n"
                                "GraphPreLowerHash: 0x00000000000000AB\n"
                                "...\n"
                                "---\n"
                                "- NodeOutputName: 'a:0'\n"
                                "  Min: -1.5\n"
                                "  Max: 0.100000001\n"
                                "  Histogram: [1, 0, 2.5]\n"
                                "- NodeOutputName: 'b:0'\n"
                                "  Min: 0\n"
                                "  Max: 3.40282347e+38\n"
                                "  Histogram: [0, 16777217, 0]\n"
                                "...\n";

/* The exact text, and the same profile back from it. */
static void test_emit(void) {
  double ha[3] = {1, 0, 2.5}, hb[3] = {0, 16777217, 0};
  glow_profile_entry e[2] = {{"a:0", -1.5f, 0.1f, 3, ha}, {"b:0", 0, 3.40282347e+38f, 3, hb}};
  glow_profile p = {"glowc 0.1.0", 1, 0xAB, 2, e};
  glow_strbuf b = {0};
  CHECK(!glow_profile_emit(&p, &b));
  printf("%s", b.s);
  CHECK(b.s && !strcmp(b.s, tiny_yaml));
  glow_profile *q = glow_profile_parse(b.s, b.len, "tiny.yml");
  CHECK(q && q->nentries == 2 && q->graph_hash == 0xAB && !strcmp(q->tools_version, "glowc 0.1.0"));
  for (int i = 0; q && i < 2; i++) {
    CHECK(!strcmp(q->entries[i].name, e[i].name) && q->entries[i].min == e[i].min && q->entries[i].max == e[i].max);
    CHECK(q->entries[i].nbins == 3 && !memcmp(q->entries[i].hist, e[i].hist, sizeof ha));
  }
  glow_profile_free(q);
  glow_sb_free(&b);
}

/* Same samples, same bytes; and what is read back is what was written. */
static void test_determinism(const glow_graph *g) {
  float xs[3][6] = {{0.1f, -0.2f, 0.3f, 7, 1e-7f, -3e5f}, {5, 4, 3, 2, 1, 0}, {-1, 1, -1, 1, 1e4f, 2}};
  float bs[3][6] = {{1, 2, 3, 4, 5, 6}, {0.5f, 0, 0, 0, 0, 0}, {-7, 7, 0, 0, 0, 0.25f}};
  glow_strbuf text[2] = {{0}, {0}};
  for (int run = 0; run < 2; run++) {
    glow_profiler *pr = glow_profiler_create(g, 0);
    for (int i = 0; i < 3; i++) {
      glow_tensor in[2];
      sample(in, xs[i], bs[i]);
      CHECK(!glow_profiler_run(pr, in));
    }
    CHECK(!glow_profile_emit(glow_profiler_profile(pr), &text[run]));
    if (run == 1) {
      glow_profile *q = glow_profile_parse(text[1].s, text[1].len, "run.yml");
      const glow_profile *p = glow_profiler_profile(pr);
      CHECK(q && q->nentries == p->nentries && q->graph_hash == p->graph_hash);
      for (int i = 0; q && i < q->nentries; i++) {
        CHECK(!strcmp(q->entries[i].name, p->entries[i].name));
        CHECK(q->entries[i].min == p->entries[i].min && q->entries[i].max == p->entries[i].max);
        CHECK(!memcmp(q->entries[i].hist, p->entries[i].hist, sizeof(double) * GLOW_PROFILE_BINS));
      }
      CHECK(q && !glow_profile_check(q, g, "run.yml"));
      glow_profile_free(q);
    }
    glow_profiler_free(pr);
  }
  CHECK(text[0].len == text[1].len && !memcmp(text[0].s, text[1].s, text[0].len));
  glow_sb_free(&text[0]);
  glow_sb_free(&text[1]);
}

/* A profile in Glow's formatting (LLVM's YAML writer: padded keys, "[ a, b ]"
 * wrapped, all digits of Min and Max, %g counts) loads and fits tiny.onnx; its
 * hash is Glow's own, so no warning. */
static void test_glow_file(const glow_graph *g, const char *path) {
  glow_profile *p = glow_profile_load(path);
  CHECK(p != NULL);
  if (!p)
    return;
  CHECK(!strcmp(p->tools_version, "") && p->has_hash && p->graph_hash == 0x8F3C2A61D94B07E5ull);
  CHECK(p->nentries == 5);
  const glow_profile_entry *x = glow_profile_find(p, "x"), *s = glow_profile_find(p, "s"), *r = glow_profile_find(p, "r");
  CHECK(x && x->min == -1000 && x->max == 1000 && x->nbins == 2000 && x->hist[1000] == 6 && x->hist[1250] == 1);
  CHECK(s && s->min == -0.1f && s->hist[1999] == 1.5e6);
  CHECK(r && r->max == 1000 && r->hist[0] == 7);
  capture_begin();
  int rc = glow_profile_check(p, g, path);
  const char *err = capture_end();
  CHECK(rc == 0 && !*err);
  glow_profile_free(p);
}

static glow_profile *profile_of(const char *const *names, int n, const char *version, uint64_t hash) {
  glow_profile *p = calloc(1, sizeof *p);
  p->tools_version = glow_xstrdup(version);
  p->has_hash = 1;
  p->graph_hash = hash;
  p->nentries = n;
  p->entries = calloc((size_t)n, sizeof *p->entries);
  for (int i = 0; i < n; i++) {
    p->entries[i].name = glow_xstrdup(names[i]);
    p->entries[i].nbins = 1;
    p->entries[i].hist = calloc(1, sizeof(double));
  }
  return p;
}

/* One error names every missing and every unexpected value. */
static void test_mismatch(const glow_graph *g) {
  const char *names[] = {"bogus:0", "r:0", "relu:0", "x:0", "y"};
  glow_profile *p = profile_of(names, 5, "", 0);
  capture_begin();
  int rc = glow_profile_check(p, g, "stale.yml");
  const char *err = capture_end();
  CHECK(rc == -1);
  CHECK(strstr(err, "stale.yml: error: the profile does not match the model"));
  CHECK(strstr(err, "3 of its values have no entry, 3 entries name no value of it"));
  CHECK(strstr(err, "missing:    b:0") && strstr(err, "missing:    s:0") && strstr(err, "missing:    y:0"));
  CHECK(strstr(err, "unexpected: bogus:0") && strstr(err, "unexpected: relu:0"));
  CHECK(strstr(err, "unexpected: y") && !strstr(err, "missing:    x:0") && !strstr(err, "missing:    r:0"));
  glow_profile_free(p);
}

/* Names match, hash differs: a warning for a glowc profile, nothing for Glow's. */
static void test_hash(const glow_graph *g) {
  const char *names[] = {"b:0", "r:0", "s:0", "x:0", "y:0"};
  uint64_t h = glow_graph_hash(g);
  CHECK(h == glow_graph_hash(g));
  glow_profile *p = profile_of(names, 5, "glowc 0.1.0", h ^ 1);
  capture_begin();
  int rc = glow_profile_check(p, g, "old.yml");
  const char *err = capture_end();
  CHECK(rc == 0 && strstr(err, "old.yml: warning:") && strstr(err, "GraphPreLowerHash") && strstr(err, "stale"));
  p->graph_hash = h;
  capture_begin();
  rc = glow_profile_check(p, g, "same.yml");
  err = capture_end();
  CHECK(rc == 0 && !*err);
  free(p->tools_version);
  p->tools_version = glow_xstrdup("Jan  1 2021");
  p->graph_hash = h ^ 1;
  capture_begin();
  rc = glow_profile_check(p, g, "glow.yml");
  err = capture_end();
  CHECK(rc == 0 && !*err);
  glow_profile_free(p);
}

/* Files that are not profiles: an error with file and line, never a crash. */
static void test_bad_files(void) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"", "bad.yml: error: not a Glow profile: no sequence"},
      {"- NodeOutputName: 'a:0'\n  Min: [1\n", "bad.yml:3:1: error: not valid YAML"},
      {"GlowToolsVersion: x\n", "no sequence"},
      {"--- {Foo: 1}\n", "bad.yml:1: error: not a Glow profile document"},
      {"- NodeOutputName: a:0\n  Min: 0\n  Max: 1\n  Histogram: [1]\n  Scale: 2\n", "bad.yml:5: error: unknown key 'Scale'"},
      {"- NodeOutputName: a:0\n  Min: 2\n  Max: 1\n  Histogram: [1]\n", "bad.yml:1: error: Min is greater than Max for 'a:0'"},
      {"- NodeOutputName: a:0\n  Min: 0\n  Max: 1\n", "bad.yml:1: error: a profile entry lacks Histogram"},
      {"- NodeOutputName: a:0\n  Min: zero\n  Max: 1\n  Histogram: []\n", "bad.yml:2: error: Min is not a finite float"},
      {"- NodeOutputName: a:0\n  Min: 0\n  Max: nan\n  Histogram: []\n", "Max is not a finite float"},
      {"- NodeOutputName: a:0\n  Min: 0\n  Max: 1e39\n  Histogram: []\n", "bad.yml:3: error: Max is not a finite float"},
      {"- NodeOutputName: a:0\n  Min: 0\n  Max: 1\n  Histogram: [1, -2]\n", "bad.yml:4: error: the histogram of 'a:0' has a negative count"},
      {"- NodeOutputName: a:0\n  Min: 0\n  Max: 1\n  Histogram: [1, x]\n", "a histogram count is not a finite float"},
      {"- {NodeOutputName: a:0, Min: 0, Max: 1, Histogram: []}\n- {NodeOutputName: a:0, Min: 0, Max: 1, Histogram: []}\n",
       "NodeOutputName 'a:0' appears twice"},
      {"--- []\n--- {GlowToolsVersion: x}\n", "a document after the profile entries"},
      {"--- {GraphPreLowerHash: 0xZZ}\n--- []\n", "GraphPreLowerHash '0xZZ' is not a 64-bit number"},
      {"--- [1]\n", "a profile entry is not a mapping"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    capture_begin();
    glow_profile *p = glow_profile_parse(cases[i].text, strlen(cases[i].text), "bad.yml");
    const char *err = capture_end();
    if (p || !strstr(err, cases[i].want)) {
      printf("case %zu: expected an error with \"%s\"\n", i, cases[i].want);
      failures++;
    }
    glow_profile_free(p);
  }
  /* Glow's files from before 2020 have no GlowToolsVersion; older still, no hash. */
  const char *old = "--- {GraphPreLowerHash: 12}\n--- [{NodeOutputName: a:0, Min: 0, Max: 1, Histogram: [3]}]\n";
  glow_profile *p = glow_profile_parse(old, strlen(old), "old.yml");
  CHECK(p && p->has_hash && p->graph_hash == 12 && !strcmp(p->tools_version, "") && p->nentries == 1);
  glow_profile_free(p);
  p = glow_profile_parse("[]", 2, "empty.yml");
  CHECK(p && !p->has_hash && p->nentries == 0);
  glow_profile_free(p);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test-profile <tiny.onnx> <glow-profile.yml>\n");
    return 2;
  }
  glow_graph *g = load_tiny(argv[1]);
  test_observer(g);
  test_by_hand(g);
  test_nonfinite(g);
  test_emit();
  test_determinism(g);
  test_glow_file(g, argv[2]);
  test_mismatch(g);
  test_hash(g);
  test_bad_files();
  glow_graph_free(g);
  printf(failures ? "%d check(s) failed\n" : "all profile checks passed\n", failures);
  return failures != 0;
}
