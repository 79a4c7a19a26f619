/* PNG files into 8-bit pixels through libpng, as Glow's image loader reads them:
 * grey images keep one channel, colour ones give three in the file's RGB order.
 * Also what Glow's reader leaves undefined: palette images become RGB, 1/2/4-bit
 * grey becomes 8-bit, 16-bit samples are scaled to 8 bits, alpha is dropped, and
 * interlaced files are read whole. A file that is not a PNG, is cut short or is
 * corrupt is an error naming it. */
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "driver/image-classifier.h"

/* Side of the largest image read (libpng refuses larger ones): a hostile header cannot
 * make an allocation over 200 MB. */
#define MAX_SIDE 8192

typedef struct reader {
  const char *path;
  FILE *f;
  png_structp png;
  png_infop info;
  png_bytep *rows;
  char msg[200]; /* libpng's last error */
} reader;

static void on_error(png_structp png, png_const_charp msg) {
  reader *r = png_get_error_ptr(png);
  snprintf(r->msg, sizeof r->msg, "%s", msg);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

/* What a file that is not a PNG seems to be, for the message. */
static const char *not_png_hint(const unsigned char *sig, size_t n) {
  if (n >= 2 && sig[0] == 'P' && (sig[1] == '5' || sig[1] == '6'))
    return ": it is a PPM image; convert it to PNG";
  if (n >= 6 && !memcmp(sig, "\x93NUMPY", 6))
    return ": it is a NumPy .npy tensor; model-profiler -input-dataset takes tensors";
  if (n >= 3 && sig[0] == 0xff && sig[1] == 0xd8 && sig[2] == 0xff)
    return ": it is a JPEG image; convert it to PNG";
  return "";
}

/* Reads the header and sets up libpng's conversions; returns the channel count. */
static int read_header(reader *r, glow_image *img) {
  png_structp png = r->png;
  png_infop info = r->info;
  png_init_io(png, r->f);
  png_set_sig_bytes(png, 8);
  png_set_user_limits(png, MAX_SIDE, MAX_SIDE);
  png_read_info(png, info);
  int type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
  if (type == PNG_COLOR_TYPE_PALETTE)
    png_set_palette_to_rgb(png);
  if ((type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) && depth < 8)
    png_set_expand_gray_1_2_4_to_8(png);
  if (depth == 16)
    png_set_scale_16(png);
  if (type & PNG_COLOR_MASK_ALPHA)
    png_set_strip_alpha(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  img->h = png_get_image_height(png, info);
  img->w = png_get_image_width(png, info);
  img->c = png_get_channels(png, info);
  return img->c;
}

/* The libpng part; a libpng error jumps back here (r's fields stay valid: r is not local). */
static int decode(reader *r, glow_image *img) {
  if (setjmp(png_jmpbuf(r->png)))
    return -1;
  int c = read_header(r, img);
  if (c != 1 && c != 3) {
    snprintf(r->msg, sizeof r->msg, "%d channels after conversion (expected 1 or 3)", c);
    return -1;
  }
  size_t row = (size_t)img->w * (size_t)c;
  if (png_get_rowbytes(r->png, r->info) != row) {
    snprintf(r->msg, sizeof r->msg, "unexpected row size");
    return -1;
  }
  img->px = glow_xmalloc(row * (size_t)img->h);
  r->rows = glow_xmalloc(sizeof *r->rows * (size_t)img->h);
  for (int64_t y = 0; y < img->h; y++)
    r->rows[y] = img->px + (size_t)y * row;
  png_read_image(r->png, r->rows);
  png_read_end(r->png, NULL);
  return 0;
}

int glow_png_read(const char *path, glow_image *img) {
  memset(img, 0, sizeof *img);
  reader *r = glow_xcalloc(1, sizeof *r);
  r->path = path;
  int rc = -1;
  unsigned char sig[8];
  size_t n = 0;
  if (!(r->f = fopen(path, "rb"))) {
    glow_error(path, "cannot open the image: %s", strerror(errno));
    goto done;
  }
  n = fread(sig, 1, sizeof sig, r->f);
  if (n < 8 || png_sig_cmp(sig, 0, 8)) {
    glow_error(path, "not a PNG image (no PNG signature)%s", not_png_hint(sig, n));
    goto done;
  }
  r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, on_error, on_warning);
  r->info = r->png ? png_create_info_struct(r->png) : NULL;
  if (!r->info) {
    glow_error(path, "libpng could not start (out of memory)");
    goto done;
  }
  if (decode(r, img)) {
    int cut = feof(r->f);
    glow_error(path, "%s (libpng: %s)", cut ? "the PNG file is cut short (truncated)" : "not a valid PNG image",
               r->msg[0] ? r->msg : "error");
    goto done;
  }
  rc = 0;
done:
  if (r->png)
    png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
  if (r->f)
    fclose(r->f);
  free(r->rows);
  free(r);
  if (rc)
    glow_image_free(img);
  return rc;
}

void glow_image_free(glow_image *img) {
  free(img->px);
  img->px = NULL;
}
