/* SHA-256 against the FIPS 180-2 / NIST example vectors, one-shot and fed in
 * odd-sized pieces (so block boundaries fall everywhere). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

static int failures;

static void check(const char *what, const unsigned char d[32], const char *want) {
  char hex[65];
  glow_sha256_hex(d, hex);
  if (strcmp(hex, want)) {
    printf("FAIL %s: got %s, want %s\n", what, hex, want);
    failures++;
  }
}

static void vector(const char *msg, size_t repeat, const char *want) {
  size_t n = strlen(msg) * repeat;
  char *buf = malloc(n + 1);
  for (size_t i = 0; i < repeat; i++)
    memcpy(buf + i * strlen(msg), msg, strlen(msg));
  unsigned char d[32];
  glow_sha256(buf, n, d);
  check(msg, d, want);
  for (size_t step = 1; step <= 131; step += 13) {
    glow_sha256_ctx s;
    glow_sha256_init(&s);
    for (size_t off = 0; off < n; off += step)
      glow_sha256_update(&s, buf + off, n - off < step ? n - off : step);
    glow_sha256_final(&s, d);
    check(msg, d, want);
  }
  free(buf);
}

int main(void) {
  vector("", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  vector("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  vector("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
         "nopqrstu",
         1, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  vector("a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  /* 55, 56 and 64 bytes: the padding edge cases. */
  vector("a", 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  vector("a", 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  vector("a", 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  if (failures)
    return 1;
  printf("sha256: all vectors match\n");
  return 0;
}
