/* Whole files into memory: models, profiles, .npy and calibration files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

int glow_read_file(const char *path, uint8_t **data, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    glow_error(path, "cannot open file: %s", strerror(errno));
    return -1;
  }
  size_t cap = 0, n;
  *data = NULL;
  *size = 0;
  do {
    if (*size == cap) {
      cap = cap ? cap * 2 : 65536;
      *data = glow_xrealloc(*data, cap + 1);
    }
    n = fread(*data + *size, 1, cap - *size, f);
    *size += n;
  } while (n > 0);
  int err = ferror(f);
  fclose(f);
  if (err) {
    glow_error(path, "cannot read file: %s", strerror(errno));
    free(*data);
    return -1;
  }
  (*data)[*size] = 0;
  return 0;
}
