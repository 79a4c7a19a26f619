/* Build tool: writes a file's bytes as a C array (kernel bitcode embedded in the compiler). */
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bin2c <input> <output.c> <symbol>\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "w");
  if (!in || !out) {
    fprintf(stderr, "bin2c: cannot open %s\n", in ? argv[2] : argv[1]);
    return 1;
  }
  fprintf(out, "#include <stddef.h>\nconst unsigned char %s[] __attribute__((aligned(16))) = {", argv[3]);
  size_t n = 0;
  int c;
  while ((c = fgetc(in)) != EOF)
    fprintf(out, "%s%d,", n++ % 32 ? "" : "\n", c);
  fprintf(out, "\n};\nconst size_t %s_size = %zu;\n", argv[3], n);
  fclose(in);
  return fclose(out) != 0;
}
