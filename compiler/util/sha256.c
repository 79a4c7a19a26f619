/* SHA-256 for cache keys and cache-entry checksums, from nettle. Nettle rather than OpenSSL's
 * libcrypto: its context is a plain struct (no allocation, no call that can fail), so
 * glow_sha256_ctx stays a value kept on the caller's stack and no caller gains an error path, where
 * libcrypto 3's streaming API (EVP_MD_CTX) allocates and may fail at each step; nettle uses the
 * SHA extensions where the CPU has them; and libcurl already loads libnettle (through GnuTLS), so
 * no new library comes to the process. Keys are byte-identical to the hand-written SHA-256 this
 * replaces (tests/cache/cache-keys.txt). */
#include <nettle/sha2.h>

#include "glowc.h"

_Static_assert(sizeof(glow_sha256_ctx) >= sizeof(struct sha256_ctx), "glow_sha256_ctx too small for nettle's");
_Static_assert(_Alignof(glow_sha256_ctx) >= _Alignof(struct sha256_ctx), "glow_sha256_ctx less aligned than nettle's");

void glow_sha256_init(glow_sha256_ctx *s) { sha256_init((struct sha256_ctx *)s); }

void glow_sha256_update(glow_sha256_ctx *s, const void *data, size_t size) {
  sha256_update((struct sha256_ctx *)s, size, data);
}

void glow_sha256_final(glow_sha256_ctx *s, unsigned char out[32]) {
  sha256_digest((struct sha256_ctx *)s, SHA256_DIGEST_SIZE, out);
}

void glow_sha256(const void *data, size_t size, unsigned char out[32]) {
  glow_sha256_ctx s;
  glow_sha256_init(&s);
  glow_sha256_update(&s, data, size);
  glow_sha256_final(&s, out);
}

void glow_sha256_hex(const unsigned char digest[32], char hex[65]) {
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}
