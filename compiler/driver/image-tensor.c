/* Glow's image preprocessing (lib/Base/Image.cpp): each 8-bit sample p of channel c
 * becomes ((p - mean[c]) / stddev[c]) * scale + lo, scale = (hi - lo) / 255, with
 * [lo, hi] from -image-mode; then the channels are reversed for BGR (the default) and
 * the image laid out NCHW (the default) or NHWC. Mean and stddev are listed in the
 * tensor's channel order (Glow reverses them into the file's RGB order for BGR). */
#include <stdlib.h>
#include <string.h>

#include "driver/image-classifier.h"

/* Glow's -image-mode values and their ranges (normModeToRange; no mode: U8's 0..255). */
static const struct {
  const char *name;
  float lo, hi;
} modes[] = {
    {"neg1to1", -1, 1},          {"0to1", 0, 1},         {"0to255", 0, 255}, {"neg128to127", -128, 127},
    {"U16", 0, 65535},           {"S16", -32768, 32767},
};

/* ImageNet's statistics as Glow scales them (-use-imagenet-normalization): the means
 * in pixel units, the deviations not. */
static const float imagenet_mean[3] = {(float)(0.485 * 255.0), (float)(0.456 * 255.0), (float)(0.406 * 255.0)};
static const float imagenet_std[3] = {0.229f, 0.224f, 0.225f};

/* "v,v,v" into out[3]: 1 after an error. */
static int parse_floats(const char *opt, const char *v, float *out, int *n) {
  *n = 0;
  if (strchr(v, ':')) {
    glow_error(opt, "'%s' has lists for several inputs (':'); image-classifier feeds one input: give one list", v);
    return 1;
  }
  for (const char *s = v;;) {
    char *end;
    double x = strtod(s, &end);
    if (end == s || *n == 3 || (*end && *end != ',')) {
      glow_error(opt, "'%s' is not a list of up to 3 numbers, one per channel (e.g. 123.7,116.3,103.5)", v);
      return 1;
    }
    out[(*n)++] = (float)x;
    if (!*end)
      return 0;
    s = end + 1;
  }
}

int glow_image_prep_parse(const glow_driver_options *d, glow_image_prep *p) {
  memset(p, 0, sizeof *p);
  int bad = 0;
  p->lo = 0;
  p->hi = 255;
  if (d->image_mode) {
    size_t k = 0;
    while (k < sizeof modes / sizeof modes[0] && strcmp(modes[k].name, d->image_mode))
      k++;
    if (k == sizeof modes / sizeof modes[0]) {
      glow_error("-image-mode", "'%s' is not one of: neg1to1, 0to1, 0to255, neg128to127, U16, S16", d->image_mode);
      bad = 1;
    } else {
      p->lo = modes[k].lo;
      p->hi = modes[k].hi;
    }
  }
  if (d->image_layout && !strcmp(d->image_layout, "NonImage")) {
    glow_error("-image-layout", "NonImage is Glow's layout for .npy tensors; images are NCHW or NHWC");
    bad = 1;
  } else if (d->image_layout && strcmp(d->image_layout, "NCHW") && strcmp(d->image_layout, "NHWC")) {
    glow_error("-image-layout", "'%s' is not one of: NCHW, NHWC", d->image_layout);
    bad = 1;
  }
  p->nhwc = d->image_layout && !strcmp(d->image_layout, "NHWC");
  if (d->image_channel_order && strcmp(d->image_channel_order, "BGR") && strcmp(d->image_channel_order, "RGB")) {
    glow_error("-image-channel-order", "'%s' is not one of: BGR, RGB", d->image_channel_order);
    bad = 1;
  }
  p->rgb = d->image_channel_order && !strcmp(d->image_channel_order, "RGB");
  p->mean[0] = p->mean[1] = p->mean[2] = 0;
  p->std[0] = p->std[1] = p->std[2] = 1;
  p->nmean = p->nstd = 3;
  if (d->imagenet && (d->mean || d->stddev)) {
    glow_error("-use-imagenet-normalization", "cannot be used with -mean or -stddev (it sets both)");
    bad = 1;
  } else if (d->imagenet) {
    memcpy(p->mean, imagenet_mean, sizeof p->mean);
    memcpy(p->std, imagenet_std, sizeof p->std);
  }
  if (d->mean)
    bad |= parse_floats("-mean", d->mean, p->mean, &p->nmean);
  if (d->stddev) {
    bad |= parse_floats("-stddev", d->stddev, p->std, &p->nstd);
    for (int c = 0; !bad && c < p->nstd; c++)
      if (p->std[c] == 0) {
        glow_error("-stddev", "'%s' has a zero deviation (each channel is divided by its value)", d->stddev);
        bad = 1;
      }
  }
  p->mean_given = d->mean != NULL;
  p->std_given = d->stddev != NULL;
  return bad ? -1 : 0;
}

void glow_image_prep_shape(const glow_image_prep *p, const glow_image *img, int64_t n, int64_t dims[4]) {
  dims[0] = n;
  if (p->nhwc) {
    dims[1] = img->h;
    dims[2] = img->w;
    dims[3] = img->c;
  } else {
    dims[1] = img->c;
    dims[2] = img->h;
    dims[3] = img->w;
  }
}

int glow_image_prep_check(const glow_image_prep *p, const glow_image *img) {
  int rc = 0;
  if (p->mean_given && p->nmean != img->c) {
    glow_error("-mean", "%d values, but the images have %d channel%s (%s): give one value per channel", p->nmean,
               img->c, img->c > 1 ? "s" : "", img->c > 1 ? "colour" : "grey");
    rc = -1;
  }
  if (p->std_given && p->nstd != img->c) {
    glow_error("-stddev", "%d values, but the images have %d channel%s (%s): give one value per channel", p->nstd,
               img->c, img->c > 1 ? "s" : "", img->c > 1 ? "colour" : "grey");
    rc = -1;
  }
  return rc;
}

void glow_image_prep_run(const glow_image_prep *p, const glow_image *img, float *dst) {
  int64_t h = img->h, w = img->w, nc = img->c, hw = h * w;
  /* In float as Glow computes it: (hi - lo) in float, divided by the double 255. */
  float scale = (float)((p->hi - p->lo) / 255.0), bias = p->lo;
  for (int z = 0; z < nc; z++) { /* z: the channel in the file (R, G, B) */
    int64_t oc = p->rgb ? z : nc - 1 - z;
    /* Glow applies the list reversed for BGR to the file's channels. */
    float m = p->mean[p->rgb ? z : p->nmean - 1 - z], s = p->std[p->rgb ? z : p->nstd - 1 - z];
    for (int64_t y = 0; y < h; y++)
      for (int64_t x = 0; x < w; x++) {
        float v = (float)img->px[(y * w + x) * nc + z];
        v = (v - m) / s;
        float out = v * scale + bias;
        if (p->nhwc)
          dst[(y * w + x) * nc + oc] = out;
        else
          dst[oc * hw + y * w + x] = out;
      }
  }
}
