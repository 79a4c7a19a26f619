/* util/size.c, the driver's only: sizes given on the command line. */
#ifndef GLOW_UTIL_SIZE_H
#define GLOW_UTIL_SIZE_H

#include "glowc.h"

/* "<bytes>[K|M|G]" (optionally KB or KiB), K being 1024 bytes, at most 2^48 bytes.
 * @return 0, -1 if v is not a size, -2 if it is over 2^48 bytes. */
int glow_size_parse(const char *v, uint64_t *size);
/* The same, reporting "<what>: error: ..." on failure. @return 0 or -1. */
int glow_size_arg(const char *what, const char *v, uint64_t *size);

#endif
