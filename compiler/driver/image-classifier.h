/* image-classifier (Glow's tool): PNG images through a model in glowc's reference
 * interpreter, the top-k labels of each printed as Glow prints them, or the images
 * used as calibration samples for a quantization profile (-dump-profile). */
#ifndef GLOW_IMAGE_CLASSIFIER_H
#define GLOW_IMAGE_CLASSIFIER_H

#include "driver/driver.h"

/* driver/png-image.c */
typedef struct glow_image {
  int64_t h, w;
  int c;       /* 1 (grey) or 3 (RGB) */
  uint8_t *px; /* h x w x c bytes, row-major, R G B */
} glow_image;
/* @return 0, or -1 after "path: error: ..." (not a PNG, cut short, corrupt). */
int glow_png_read(const char *path, glow_image *img);
void glow_image_free(glow_image *img); /* the pixels; the struct itself is the caller's */

/* driver/image-tensor.c: Glow's preprocessing of an image into the model's input */
typedef struct glow_image_prep {
  float lo, hi;   /* -image-mode's range ([0, 255] without one) */
  int nhwc;       /* -image-layout=NHWC (default NCHW) */
  int rgb;        /* -image-channel-order=RGB (default BGR) */
  int nmean, nstd;
  float mean[3], std[3]; /* -mean / -stddev / ImageNet's, in the tensor's channel order */
  int mean_given, std_given; /* -mean, -stddev given: their counts must match the channels */
} glow_image_prep;
/* The option values checked. @return 0, or -1 after errors naming the option and its values. */
int glow_image_prep_parse(const glow_driver_options *d, glow_image_prep *p);
/* The input shape of n images like img: [n, C, H, W] or [n, H, W, C]. */
void glow_image_prep_shape(const glow_image_prep *p, const glow_image *img, int64_t n, int64_t dims[4]);
/* -mean/-stddev fit img's channels. @return 0, or -1 after "-mean: error: ...". */
int glow_image_prep_check(const glow_image_prep *p, const glow_image *img);
/* One image normalized into dst (C*H*W floats, in the prep's layout and channel order). */
void glow_image_prep_run(const glow_image_prep *p, const glow_image *img, float *dst);

/* driver/classify-print.c */
typedef struct glow_label { float score; int64_t index; } glow_label;
/* The k highest of scores[0..n) as Glow's priority queue picks them (on equal scores the
 * first kept stays), highest first (equal scores: the higher index first). */
void glow_top_k(const float *scores, int64_t n, int k, glow_label *out);
/* " File: <file>" then a "Label-K<i>: <label> (probability: %0.4f)" line per label. */
void glow_print_labels(FILE *f, const char *file, const glow_label *top, int k, int label_offset);

/* driver/classify-model.c, driver/classify-run.c: one image-classifier run */
typedef struct glow_classify {
  glow_driver_options *d;
  glow_image_prep prep;
  int nimages;
  const char **images; /* the files, in order */
  glow_image first;    /* the first image's size and channels: every image's */
  int batch;           /* images per run */
  glow_graph *g;       /* the model, after glow_classify_model */
  int input, output;   /* its image input and labels output (indices into g->inputs, g->outputs) */
  int64_t nlabels;
} glow_classify;
/* Imports, checks and readies c->g. @return 0, or -1 after errors. */
int glow_classify_model(glow_classify *c);
/* "Model: <dir>" as Glow prints it. */
void glow_classify_print_model(FILE *f, const glow_driver_options *d);
/* Every batch through the interpreter: the labels printed, or the profile written.
 * @return the -expected-labels misses (0 or more), or -1 after an error. */
int glow_classify_run(glow_classify *c);

#endif
