/* util/npy.c, the driver's only: a NumPy .npy array (little-endian, C order); data points into file. */
#ifndef GLOW_UTIL_NPY_H
#define GLOW_UTIL_NPY_H

#include "glowc.h"

typedef struct glow_npy {
  glow_dtype dt;
  int rank;
  int64_t dims[GLOW_MAX_RANK];
  int64_t numel;
  const uint8_t *data;
  size_t bytes;
  uint8_t *file;
  size_t file_size;
} glow_npy;
int glow_npy_read(const char *path, glow_npy *a); /* -1 after reporting what is wrong with the file */
void glow_npy_free(glow_npy *a);
/* The .npy bytes of an array appended to out; -1 for a dtype NumPy has no code for here. */
int glow_npy_encode(glow_dtype dt, int rank, const int64_t *dims, const void *data, size_t bytes, glow_strbuf *out);

#endif
