/* Runtime library: loads the digits bundle's weights, refuses bad weights files
 * and unknown names with the right status and a message, and runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digits.h"
#include "glow-runtime.h"

static int failures;
#define CHECK(c) ((c) ? (void)0 : (void)(failures++, fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c)))

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n || fclose(f)) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
}

int main(int argc, char **argv) {
  static const glow_bundle b = GLOW_BUNDLE(digits);
  if (argc != 2) {
    fprintf(stderr, "usage: test-runtime <digits.weights.bin>\n");
    return 2;
  }
  glow_weights *w = NULL;
  glow_instance *inst = NULL;
  glow_tensor_ref in, out;

  CHECK(glow_weights_load(&b, "no-such-file.bin", &w) == GLOW_RT_ERR_IO && !w);
  CHECK(strstr(glow_last_error(), "no-such-file.bin"));

  size_t n = (size_t)digits_config.constantWeightVarsMemSize;
  char *bytes = calloc(1, n + 1);
  write_file("rt-short.bin", bytes, n - 1);
  CHECK(glow_weights_load(&b, "rt-short.bin", &w) == GLOW_RT_ERR_SIZE && !w);
  CHECK(strstr(glow_last_error(), "shorter"));
  write_file("rt-long.bin", bytes, n + 1);
  CHECK(glow_weights_load(&b, "rt-long.bin", &w) == GLOW_RT_ERR_SIZE && !w);
  CHECK(strstr(glow_last_error(), "longer"));
  CHECK(glow_weights_wrap(&b, bytes, n - 1, &w) == GLOW_RT_ERR_SIZE);
  CHECK(glow_weights_load(NULL, argv[1], &w) == GLOW_RT_ERR_ARG);
  glow_weights_free(NULL);
  glow_instance_free(NULL);

  CHECK(glow_weights_load(&b, argv[1], &w) == GLOW_RT_OK);
  CHECK(glow_instance_create(&b, w, &inst) == GLOW_RT_OK);
  CHECK(glow_instance_find(inst, "nosuch", &in) == GLOW_RT_ERR_NOT_FOUND);
  CHECK(strstr(glow_last_error(), "'input'") && strstr(glow_last_error(), "'output'"));
  CHECK(glow_instance_tensor_count(inst) == 2);
  CHECK(glow_instance_tensor(inst, 2, &in) == GLOW_RT_ERR_NOT_FOUND);
  CHECK(glow_instance_find(inst, "input", &in) == GLOW_RT_OK);
  CHECK(in.is_input && in.dtype == 1 && in.rank == 4 && in.dims[2] == 8 && in.numel == 64 && in.bytes == 256);
  CHECK(glow_instance_find(inst, "output", &out) == GLOW_RT_OK);
  CHECK(!out.is_input && out.rank == 2 && out.numel == 10 && (uintptr_t)out.data % 64 == 0);
  memset(in.data, 0, in.bytes);
  CHECK(glow_instance_run(inst) == GLOW_RT_OK);

  /* A second instance shares the weights and computes the same. */
  glow_instance *inst2 = NULL;
  glow_tensor_ref in2, out2;
  CHECK(glow_instance_create(&b, w, &inst2) == GLOW_RT_OK);
  CHECK(glow_instance_find(inst2, "input", &in2) == GLOW_RT_OK && glow_instance_find(inst2, "output", &out2) == 0);
  memset(in2.data, 0, in2.bytes);
  CHECK(glow_instance_run(inst2) == GLOW_RT_OK);
  CHECK(!memcmp(out.data, out2.data, out.bytes));
  CHECK(strcmp(glow_status_string(GLOW_RT_ERR_SIZE), "size mismatch") == 0);

  /* Feed and fetch by name, with the dtype and shape checked. */
  float img[64], logits[10], small[9];
  for (int i = 0; i < 64; i++)
    img[i] = (float)(i % 7) / 7.0f;
  const int64_t dims[4] = {1, 1, 8, 8}, wrong[4] = {1, 1, 8, 9};
  CHECK(glow_instance_feed(inst2, "nosuch", 1, 4, dims, img, sizeof img) == GLOW_RT_ERR_NOT_FOUND);
  CHECK(strstr(glow_last_error(), "no input 'nosuch'") && strstr(glow_last_error(), "'input'"));
  CHECK(glow_instance_feed(inst2, "output", 1, 2, dims, img, 40) == GLOW_RT_ERR_NOT_FOUND);
  CHECK(glow_instance_feed(inst2, "input", 7, 4, dims, img, sizeof img) == GLOW_RT_ERR_TYPE);
  CHECK(strstr(glow_last_error(), "input 'input' is float[1,1,8,8] (256 bytes); given int64[1,1,8,8] (256 bytes)"));
  CHECK(glow_instance_feed(inst2, "input", 1, 4, wrong, img, sizeof img) == GLOW_RT_ERR_TYPE);
  CHECK(strstr(glow_last_error(), "given float[1,1,8,9]"));
  CHECK(glow_instance_feed(inst2, "input", 1, 3, dims + 1, img, sizeof img) == GLOW_RT_ERR_TYPE);
  CHECK(glow_instance_feed(inst2, "input", 1, 4, dims, img, sizeof img - 4) == GLOW_RT_ERR_TYPE);
  CHECK(glow_instance_feed(inst2, "input", 1, 4, dims, img, sizeof img) == GLOW_RT_OK);
  CHECK(!memcmp(in2.data, img, sizeof img));
  CHECK(glow_instance_run(inst2) == GLOW_RT_OK);
  CHECK(glow_instance_fetch(inst2, "input", 1, logits, sizeof logits) == GLOW_RT_ERR_NOT_FOUND);
  CHECK(strstr(glow_last_error(), "no output 'input'") && strstr(glow_last_error(), "'output'"));
  CHECK(glow_instance_fetch(inst2, "output", 11, logits, sizeof logits) == GLOW_RT_ERR_TYPE);
  CHECK(strstr(glow_last_error(), "output 'output' is float[1,10] (40 bytes); asked for double into 40 bytes"));
  CHECK(glow_instance_fetch(inst2, "output", 1, small, sizeof small) == GLOW_RT_ERR_TYPE);
  CHECK(glow_instance_fetch(inst2, "output", 1, logits, sizeof logits) == GLOW_RT_OK);
  CHECK(!memcmp(logits, out2.data, sizeof logits) && memcmp(logits, out.data, sizeof logits));
  CHECK(strcmp(glow_status_string(GLOW_RT_ERR_TYPE), "type or shape mismatch") == 0);

  /* An area larger than size_t holds (2^32 + 64 bytes in a 32-bit program; tests/cross runs this
   * there) is refused, not cut to its low bits (a 64-byte area the bundle would write past). */
  struct BundleConfig huge = digits_config;
  huge.mutableWeightVarsMemSize = SIZE_MAX == UINT32_MAX ? ((uint64_t)1 << 32) + 64 : UINT64_MAX - 8;
  glow_bundle hb = b;
  hb.config = &huge;
  glow_weights *hw = NULL;
  glow_instance *hi = NULL;
  CHECK(glow_weights_load(&hb, argv[1], &hw) == GLOW_RT_OK);
  CHECK(glow_instance_create(&hb, hw, &hi) == GLOW_RT_ERR_NOMEM && !hi);
  glow_weights_free(hw);

  glow_instance_free(inst2);
  glow_instance_free(inst);
  glow_weights_free(w);
  free(bytes);
  remove("rt-short.bin");
  remove("rt-long.bin");
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
