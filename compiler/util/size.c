/* Sizes on the command line: <bytes>[K|M|G] (optionally KB or KiB, ...), K being 1024 bytes. */
#include <ctype.h>
#include <string.h>

#include "util/size.h"

int glow_size_parse(const char *v, uint64_t *size) {
  const char *p = v;
  uint64_t n = 0;
  int ok = isdigit((unsigned char)*p);
  for (; isdigit((unsigned char)*p); p++)
    n = n > (UINT64_C(1) << 50) ? n : n * 10 + (uint64_t)(*p - '0'); /* held past 2^48: too large anyway */
  int shift = *p == 'K' || *p == 'k' ? 10 : *p == 'M' || *p == 'm' ? 20 : *p == 'G' || *p == 'g' ? 30 : 0;
  if (shift)
    p += 1 + (!strcmp(p + 1, "B") || !strcmp(p + 1, "b") ? 1 : !strcmp(p + 1, "iB") ? 2 : 0);
  if (!ok || *p)
    return -1;
  if (n > (UINT64_C(1) << 48) >> shift)
    return -2;
  *size = n << shift;
  return 0;
}

int glow_size_arg(const char *what, const char *v, uint64_t *size) {
  int rc = glow_size_parse(v, size);
  if (rc == -1)
    glow_error(what, "'%s' is not a size: give it in bytes, or in K, M or G (1024 bytes, 1024 K, 1024 M), "
                     "e.g. %s=512M", v, what);
  else if (rc == -2)
    glow_error(what, "'%s' is more than 2^48 bytes (256 TiB)", v);
  return rc ? -1 : 0;
}
