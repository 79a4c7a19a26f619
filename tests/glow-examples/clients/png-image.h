// Reads an 8-bit PNG through libpng into the float tensor a Glow example program feeds its bundle.
#ifndef GLOW_EXAMPLES_PNG_IMAGE_H
#define GLOW_EXAMPLES_PNG_IMAGE_H

#include <stddef.h>

// Reads `path`, which must be an 8-bit PNG of `height` x `width` pixels, grey when `channels` is 1,
// RGB or RGBA (alpha dropped) when it is 3, into `out` (channels*height*width floats) in CHW
// order, each value byte/255 (Glow's -image-mode=0to1); `bgr` stores the colour planes in
// blue, green, red order (Glow's default -image-channel-order for Caffe2 nets).
// @return 0, or -1 with a message naming the file in `err` (of `err_size` bytes).
int png_image_read(const char *path, unsigned channels, unsigned height, unsigned width, bool bgr,
                   float *out, char *err, size_t err_size);

#endif
