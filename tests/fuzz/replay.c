/* Replay driver: runs a fuzz target over seed files, and over deterministic
 * mutations of each (every truncation point on a coarse grid, and single-byte
 * changes), so the fuzz targets also run as plain tests without libFuzzer.
 *
 *   replay-<target> [-mutations N] <file>... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static unsigned long state = 88172645463325252ul;
static unsigned long next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int main(int argc, char **argv) {
  int mutations = 1000, files = 0;
  long runs = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-mutations") && i + 1 < argc) {
      mutations = atoi(argv[++i]);
      continue;
    }
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "replay: cannot open %s\n", argv[i]);
      return 2;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)n + 1), *copy = malloc((size_t)n + 1);
    if (!data || !copy || fread(data, 1, (size_t)n, f) != (size_t)n) {
      fprintf(stderr, "replay: cannot read %s\n", argv[i]);
      return 2;
    }
    fclose(f);
    files++;
    LLVMFuzzerTestOneInput(data, (size_t)n), runs++;
    for (int k = 1; k <= 16; k++) /* truncations */
      LLVMFuzzerTestOneInput(data, (size_t)(n * k / 17)), runs++;
    for (int m = 0; m < mutations && n > 0; m++) { /* 1-4 random byte changes */
      memcpy(copy, data, (size_t)n);
      for (int c = 0, nc = 1 + (int)(next() % 4); c < nc; c++)
        copy[next() % (unsigned long)n] = (unsigned char)next();
      LLVMFuzzerTestOneInput(copy, (size_t)n), runs++;
    }
    free(data);
    free(copy);
  }
  printf("replayed %ld inputs from %d files without a crash\n", runs, files);
  return files ? 0 : 2;
}
