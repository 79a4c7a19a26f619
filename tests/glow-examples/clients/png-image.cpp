// Reads an 8-bit PNG through libpng into the float tensor a Glow example program feeds its bundle.
#include "png-image.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

namespace {

struct PngFile {
  FILE *fp = nullptr;
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~PngFile() {
    if (png)
      png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
    if (fp)
      fclose(fp);
  }
};

// libpng reports errors by longjmp: these keep its setjmp in frames without C++ objects.
bool read_info(png_structp png, png_infop info, FILE *fp, int sig_bytes) {
  if (setjmp(png_jmpbuf(png)))
    return false;
  png_init_io(png, fp);
  png_set_sig_bytes(png, sig_bytes);
  png_read_info(png, info);
  return true;
}

bool read_image(png_structp png, png_bytep *rows) {
  if (setjmp(png_jmpbuf(png)))
    return false;
  png_read_image(png, rows);
  png_read_end(png, nullptr);
  return true;
}

}  // namespace

int png_image_read(const char *path, unsigned channels, unsigned height, unsigned width, bool bgr,
                   float *out, char *err, size_t err_size) {
  PngFile f;
  unsigned char sig[8];
  f.fp = fopen(path, "rb");
  if (!f.fp) {
    snprintf(err, err_size, "%s: cannot open", path);
    return -1;
  }
  if (fread(sig, 1, sizeof sig, f.fp) != sizeof sig || png_sig_cmp(sig, 0, sizeof sig)) {
    snprintf(err, err_size, "%s: not a PNG file", path);
    return -1;
  }
  f.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  f.info = f.png ? png_create_info_struct(f.png) : nullptr;
  if (!f.info) {
    snprintf(err, err_size, "%s: out of memory", path);
    return -1;
  }
  if (!read_info(f.png, f.info, f.fp, sizeof sig)) {
    snprintf(err, err_size, "%s: corrupt PNG header", path);
    return -1;
  }
  png_uint_32 w = png_get_image_width(f.png, f.info), h = png_get_image_height(f.png, f.info);
  int type = png_get_color_type(f.png, f.info), depth = png_get_bit_depth(f.png, f.info);
  unsigned stored = type == PNG_COLOR_TYPE_GRAY ? 1 : type == PNG_COLOR_TYPE_RGB ? 3
                  : type == PNG_COLOR_TYPE_RGB_ALPHA ? 4 : 0;
  bool colour_ok = channels == 1 ? stored == 1 : stored == 3 || stored == 4;
  if (depth != 8 || !colour_ok || w != width || h != height ||
      png_get_interlace_type(f.png, f.info) != PNG_INTERLACE_NONE) {
    snprintf(err, err_size, "%s: %ux%u, colour type %d, %d bits; want %ux%u %s, 8 bits, not interlaced", path,
             (unsigned)w, (unsigned)h, type, depth, width, height, channels == 1 ? "grey" : "RGB");
    return -1;
  }
  size_t row_bytes = png_get_rowbytes(f.png, f.info);
  std::vector<png_byte> pixels(row_bytes * h);
  std::vector<png_bytep> rows(h);
  for (png_uint_32 y = 0; y < h; y++)
    rows[y] = &pixels[y * row_bytes];
  if (!read_image(f.png, rows.data())) {
    snprintf(err, err_size, "%s: corrupt PNG data", path);
    return -1;
  }
  size_t plane = (size_t)h * w;
  for (unsigned c = 0; c < channels; c++) {
    float *dst = out + (bgr && channels == 3 ? 2 - c : c) * plane;
    for (size_t y = 0; y < h; y++)
      for (size_t x = 0; x < w; x++)
        dst[y * w + x] = rows[y][x * stored + c] / 255.0f;
  }
  return 0;
}
