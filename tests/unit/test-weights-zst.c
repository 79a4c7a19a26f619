/* Packed weights (.weights.zst) through the runtime's loader, against the raw
 * .weights.bin of the same compile:
 *
 *   test-weights-zst <digits.weights.bin> <digits.weights.zst> [<other.bin> <other.zst>]...
 *
 * The digits bundles linked in: digits_zst (-weights=bin,zst; its files are
 * the first pair) and digits_packed (-weights=embedded,zst). Checks that
 *   - every pair unpacks to exactly the raw bytes (further pairs: any bundle,
 *     e.g. resnet18's, through a bundle description of its size);
 *   - the embedded packed bytes unpack to them too, and both run like the raw;
 *   - each defect of a file is refused with its status and a message naming
 *     the file and the problem, never a crash: truncated at every part, wrong
 *     magic, version, checksum kind, size, alignment, checksum, corrupt frame,
 *     tables that contradict themselves, a frame that unpacks to more than it
 *     declares (a bomb), a frame without a content size, one needing a window
 *     over 1 MiB, bytes after the frame, a missing file. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "digits_packed.h"
#include "digits_zst.h"
#include "glow-runtime.h"
#include "weights-zst-format.h"

static int failures;
#define CHECK(c)                                                                                                       \
  do {                                                                                                                 \
    if (!(c)) {                                                                                                        \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                                            \
      failures++;                                                                                                      \
    }                                                                                                                  \
  } while (0)

static uint8_t *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *d = malloc(*size + 1);
  if (fread(d, 1, *size, f) != *size)
    exit(2);
  fclose(f);
  return d;
}

static void spit(const char *path, const void *d, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(d, 1, size, f) != size || fclose(f))
    exit(2);
}

/* A bundle description of size bytes of constant weights (no entry point). */
static glow_bundle sized(struct BundleConfig *cfg, uint64_t size) {
  memset(cfg, 0, sizeof *cfg);
  cfg->constantWeightVarsMemSize = size;
  cfg->alignment = 64;
  return (glow_bundle){"sized", cfg, NULL, NULL};
}

/* The file's bytes (size) through the loader, which must refuse them with
 * status and a message holding the path and `want`. */
static void refused(const glow_bundle *b, const char *name, const uint8_t *d, size_t size, int status,
                    const char *want) {
  spit(name, d, size);
  glow_weights *w = (glow_weights *)1;
  int rc = glow_weights_load_zst(b, name, &w);
  const char *e = glow_last_error();
  printf("%-22s %3d  %s\n", name, rc, e);
  CHECK(rc == status && !w && strstr(e, name) && strstr(e, want));
  if (rc != status || !strstr(e, want))
    fprintf(stderr, "  %s: want status %d and '%s'\n", name, status, want);
  glow_weights_free(rc ? NULL : w);
  /* the same bytes from memory: the same status */
  w = (glow_weights *)1;
  rc = glow_weights_unpack(b, d, size, &w);
  CHECK(rc == status && !w && strstr(glow_last_error(), want));
  if (rc != status || !strstr(glow_last_error(), want))
    fprintf(stderr, "  %s from memory: %d %s\n", name, rc, glow_last_error());
  remove(name);
}

/* A packed file around `frame` (filter none): raw_size bytes declared. */
static size_t wrap_frame(uint8_t *out, uint64_t raw_size, uint64_t filtered, const void *frame, size_t frame_size) {
  glow_wzst_header h = {GLOW_WZST_VERSION, GLOW_WZST_CHECKSUM_XXH64, GLOW_WZST_FILTER_NONE, 0, raw_size, 64, 0,
                        filtered, frame_size};
  glow_wzst_header_write(out, &h);
  memcpy(out + GLOW_WZST_HEADER_SIZE, frame, frame_size);
  return GLOW_WZST_HEADER_SIZE + frame_size;
}

static void defects(const uint8_t *z, size_t zn) {
  static const glow_bundle digits = GLOW_BUNDLE(digits_zst);
  uint8_t *d = malloc(zn + 64);
  glow_wzst_header h;
  memset(&h, 0, sizeof h);
  CHECK(glow_wzst_header_read(z, &h) == 0 && h.filter == GLOW_WZST_FILTER_FLOAT_LANES);
  uint64_t tables = zn - h.frame_size;
  size_t cuts[] = {10, GLOW_WZST_HEADER_SIZE + 3, (size_t)tables - 1, (size_t)tables + 7, zn / 2, zn - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
    refused(&digits, "zst-truncated", z, cuts[i], GLOW_RT_ERR_FORMAT, "truncated");
#define MUTATE(NAME, STATUS, WANT, ...)                                                                                \
  do {                                                                                                                 \
    memcpy(d, z, zn);                                                                                                  \
    __VA_ARGS__;                                                                                                       \
    refused(&digits, NAME, d, zn, STATUS, WANT);                                                                       \
  } while (0)
  MUTATE("zst-magic", GLOW_RT_ERR_FORMAT, "not glowc packed weights", d[0] = 'X');
  MUTATE("zst-version", GLOW_RT_ERR_FORMAT, "format version 2", glow_wzst_put32(d + 8, 2));
  MUTATE("zst-checksum-kind", GLOW_RT_ERR_FORMAT, "unknown checksum kind", glow_wzst_put32(d + 12, 7));
  MUTATE("zst-size", GLOW_RT_ERR_SIZE, "bundle 'digits_zst' needs", glow_wzst_put64(d + 16, h.raw_size + 64));
  MUTATE("zst-alignment", GLOW_RT_ERR_SIZE, "alignment", glow_wzst_put64(d + 24, 32));
  MUTATE("zst-checksum", GLOW_RT_ERR_CHECKSUM, "checksum mismatch", d[32] ^= 1);
  MUTATE("zst-filter", GLOW_RT_ERR_FORMAT, "unknown filter", glow_wzst_put32(d + 40, 9));
  MUTATE("zst-filtered-size", GLOW_RT_ERR_FORMAT, "filtered size", glow_wzst_put64(d + 48, h.filtered_size + 1));
  MUTATE("zst-frame-size", GLOW_RT_ERR_FORMAT, "truncated", glow_wzst_put64(d + 56, h.frame_size + 10));
  MUTATE("zst-segment", GLOW_RT_ERR_FORMAT, "segment", glow_wzst_put64(d + GLOW_WZST_HEADER_SIZE, h.raw_size));
  MUTATE("zst-escapes", GLOW_RT_ERR_FORMAT, "escapes",
         glow_wzst_put32(d + GLOW_WZST_HEADER_SIZE + GLOW_WZST_SEGMENT_SIZE * h.segments, 1u << 30));
  /* a byte of the frame's last block: zstd or the checksum notices */
  memcpy(d, z, zn);
  d[zn - 40] ^= 0x55;
  spit("zst-frame-byte", d, zn);
  glow_weights *w = NULL;
  int rc = glow_weights_load_zst(&digits, "zst-frame-byte", &w);
  printf("%-22s %3d  %s\n", "zst-frame-byte", rc, glow_last_error());
  CHECK((rc == GLOW_RT_ERR_FORMAT || rc == GLOW_RT_ERR_CHECKSUM) && !w && strstr(glow_last_error(), "zst-frame-byte"));
  remove("zst-frame-byte");
  memcpy(d, z, zn);
  d[zn] = 0;
  refused(&digits, "zst-trailing", d, zn + 1, GLOW_RT_ERR_FORMAT, "trailing bytes");
  free(d);

  /* Frames built here: a bomb (10x the declared bytes), no content size, a 4 MiB window. */
  uint64_t n = h.raw_size;
  size_t big = 4u << 20, cap = ZSTD_compressBound(big) + 64;
  uint8_t *src = calloc(1, big), *frame = malloc(cap), *file = malloc(cap + 64);
  size_t fn = ZSTD_compress(frame, cap, src, (size_t)(10 * n), 3);
  refused(&digits, "zst-bomb", file, wrap_frame(file, n, n, frame, fn), GLOW_RT_ERR_FORMAT, "decompression bomb");
  ZSTD_CCtx *c = ZSTD_createCCtx();
  ZSTD_outBuffer out = {frame, cap, 0};
  ZSTD_inBuffer in = {src, (size_t)n, 0}, none = {NULL, 0, 0};
  ZSTD_compressStream2(c, &out, &in, ZSTD_e_continue); /* streamed: no content size in the frame */
  while (ZSTD_compressStream2(c, &out, &none, ZSTD_e_end))
    ;
  refused(&digits, "zst-no-content-size", file, wrap_frame(file, n, n, frame, out.pos), GLOW_RT_ERR_FORMAT,
          "content size");
  for (size_t i = 0; i < big; i++)
    src[i] = (uint8_t)(i * 2654435761u >> 13);
  ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 23);
  fn = ZSTD_compress2(c, frame, cap, src, big);
  struct BundleConfig cfg;
  glow_bundle four = sized(&cfg, big);
  /* From a file, the window would be a buffer of its own: refused. (From memory, zstd decodes a
   * whole frame straight into the area with no window buffer, so it may go on: not tested.) */
  size_t wn = wrap_frame(file, big, big, frame, fn);
  spit("zst-window", file, wn);
  w = (glow_weights *)1;
  rc = glow_weights_load_zst(&four, "zst-window", &w);
  printf("%-22s %3d  %s\n", "zst-window", rc, glow_last_error());
  CHECK(rc == GLOW_RT_ERR_FORMAT && !w && strstr(glow_last_error(), "Frame requires too much memory"));
  remove("zst-window");
  ZSTD_freeCCtx(c);
  free(src);
  free(frame);
  free(file);

  w = (glow_weights *)1;
  rc = glow_weights_load_zst(&digits, "no-such-file.weights.zst", &w);
  CHECK(rc == GLOW_RT_ERR_IO && !w && strstr(glow_last_error(), "no-such-file.weights.zst"));
}

/* Runs a digits bundle on one image with these weights; output into y[10]. */
static int run(const glow_bundle *b, const glow_weights *w, float *y) {
  glow_instance *inst;
  glow_tensor_ref in, out;
  if (glow_instance_create(b, w, &inst) || glow_instance_find(inst, "input", &in) ||
      glow_instance_find(inst, "output", &out))
    return -1;
  for (int i = 0; i < 64; i++)
    ((float *)in.data)[i] = (float)(i % 9) / 8.0f;
  int rc = glow_instance_run(inst);
  memcpy(y, out.data, 10 * sizeof(float));
  glow_instance_free(inst);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc % 2 == 0) {
    fprintf(stderr, "usage: test-weights-zst <digits.weights.bin> <digits.weights.zst> [<bin> <zst>]...\n");
    return 2;
  }
  for (int a = 1; a < argc; a += 2) {
    size_t rn, zn;
    uint8_t *raw = slurp(argv[a], &rn), *z = slurp(argv[a + 1], &zn);
    struct BundleConfig cfg;
    glow_bundle b = sized(&cfg, rn);
    glow_weights *w = NULL;
    int rc = glow_weights_load_zst(&b, argv[a + 1], &w);
    CHECK(rc == GLOW_RT_OK && w && !memcmp(glow_weights_data(w), raw, rn));
    if (rc)
      fprintf(stderr, "%s\n", glow_last_error());
    printf("%s: %zu bytes unpacked from %zu (%.1f%%): %s\n", argv[a + 1], rn, zn, 100.0 * (double)zn / (double)rn,
           w && !memcmp(glow_weights_data(w), raw, rn) ? "identical to the .bin" : "DIFFERENT");
    glow_weights_free(w);
    if (a == 1) {
      static const glow_bundle digits = GLOW_BUNDLE(digits_zst), packed = GLOW_BUNDLE(digits_packed);
      glow_weights *wb = NULL, *wz = NULL, *wp = NULL;
      float yb[10], yz[10], yp[10];
      CHECK(!glow_weights_load(&digits, argv[1], &wb) && !glow_weights_load_zst(&digits, argv[2], &wz));
      CHECK(!glow_weights_unpack(&packed, digits_packed_constant_weights_zst, DIGITS_PACKED_CONSTANT_WEIGHTS_ZST_SIZE,
                                 &wp));
      CHECK(wp && !memcmp(glow_weights_data(wp), raw, rn));
      CHECK(!run(&digits, wb, yb) && !run(&digits, wz, yz) && !run(&packed, wp, yp));
      CHECK(!memcmp(yb, yz, sizeof yb) && !memcmp(yb, yp, sizeof yb));
      printf("digits: embedded packed weights (%d bytes) unpack to the .bin; all three run alike\n",
             DIGITS_PACKED_CONSTANT_WEIGHTS_ZST_SIZE);
      glow_weights_free(wb);
      glow_weights_free(wz);
      glow_weights_free(wp);
      defects(z, zn);
    }
    free(raw);
    free(z);
  }
  if (failures)
    fprintf(stderr, "test-weights-zst: %d failures\n", failures);
  return failures ? 1 : 0;
}
