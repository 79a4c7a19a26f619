/* Caffe2 op arguments: typed reads with Caffe2's defaults, and the
 * sliding-window arguments of Conv and pooling in their several spellings
 * (kernel, kernel_h/kernel_w, kernels; the same for stride, dilation; pad,
 * pad_t/pad_l/pad_b/pad_r, pads; legacy_pad), as Caffe2's ConvPoolOpBase
 * reads them. */
#include <string.h>

#include "importer/caffe2.h"

const Caffe2__Argument *glow_c2_arg(const glow_c2_op *op, const char *name) {
  for (size_t i = 0; i < op->def->n_arg; i++)
    if (op->def->arg[i]->name && !strcmp(op->def->arg[i]->name, name))
      return op->def->arg[i];
  return NULL;
}

int glow_c2_arg_int(const glow_c2_op *op, const char *name, int64_t dflt, int64_t *v) {
  const Caffe2__Argument *a = glow_c2_arg(op, name);
  *v = dflt;
  if (!a)
    return 0;
  if (!a->has_i)
    return glow_c2_err(op, "argument '%s' must be an integer (field i)", name);
  *v = a->i;
  return 0;
}

int glow_c2_arg_float(const glow_c2_op *op, const char *name, double dflt, double *v) {
  const Caffe2__Argument *a = glow_c2_arg(op, name);
  *v = dflt;
  if (!a)
    return 0;
  if (a->has_f)
    *v = a->f;
  else if (a->has_i) /* written by tools that store whole numbers as integers */
    *v = (double)a->i;
  else
    return glow_c2_err(op, "argument '%s' must be a number (field f)", name);
  return 0;
}

int glow_c2_arg_ints(const glow_c2_op *op, const char *name, int64_t *v, int cap) {
  const Caffe2__Argument *a = glow_c2_arg(op, name);
  if (!a)
    return -2;
  if (a->n_ints > (size_t)cap)
    return glow_c2_err(op, "argument '%s' has %zu values; at most %d are supported", name, a->n_ints, cap);
  if (!a->n_ints && (a->has_i || a->has_f || a->n_floats))
    return glow_c2_err(op, "argument '%s' must be a list of integers (field ints)", name);
  for (size_t i = 0; i < a->n_ints; i++)
    v[i] = a->ints[i];
  return (int)a->n_ints;
}

int glow_c2_arg_is(const glow_c2_op *op, const char *name, const char *s) {
  const Caffe2__Argument *a = glow_c2_arg(op, name);
  return a && a->has_s && a->s.len == strlen(s) && !memcmp(a->s.data, s, a->s.len);
}

int glow_c2_check_nchw(const glow_c2_op *op) {
  const Caffe2__Argument *a = glow_c2_arg(op, "order");
  if (!a || glow_c2_arg_is(op, "order", "NCHW"))
    return 0;
  if (glow_c2_arg_is(op, "order", "NHWC"))
    return glow_c2_err(op, "order NHWC is not supported: glowc imports NCHW nets only (Caffe2's default order)");
  return glow_c2_err(op, "argument 'order' is '%.*s'; Caffe2 orders are NCHW and NHWC, and glowc imports NCHW",
                     a->has_s ? (int)a->s.len : 0, a->has_s ? (const char *)a->s.data : "");
}

/* One window argument for every spatial axis: <base>, <base>_h/<base>_w
 * (2-D), or the list <base>s; dflt when none is given. 1 if given, 0 if not,
 * -1 after an error. */
static int hw_arg(const glow_c2_op *op, const char *base, int nsp, int64_t dflt, int64_t *v) {
  char h[32], w[32], list[32];
  snprintf(h, sizeof h, "%s_h", base);
  snprintf(w, sizeof w, "%s_w", base);
  snprintf(list, sizeof list, "%ss", base);
  int64_t one;
  for (int i = 0; i < nsp; i++)
    v[i] = dflt;
  if (glow_c2_arg(op, base)) {
    if (glow_c2_arg_int(op, base, dflt, &one))
      return -1;
    for (int i = 0; i < nsp; i++)
      v[i] = one;
    return 1;
  }
  if (glow_c2_arg(op, h) || glow_c2_arg(op, w)) {
    if (nsp != 2)
      return glow_c2_err(op, "arguments %s and %s are for 2-D inputs; this input has %d spatial axes", h, w, nsp);
    if (!glow_c2_arg(op, h) || !glow_c2_arg(op, w))
      return glow_c2_err(op, "argument %s is given without %s", glow_c2_arg(op, h) ? h : w, glow_c2_arg(op, h) ? w : h);
    return glow_c2_arg_int(op, h, dflt, &v[0]) || glow_c2_arg_int(op, w, dflt, &v[1]) ? -1 : 1;
  }
  int n = glow_c2_arg_ints(op, list, v, GLOW_MAX_RANK);
  if (n == -2)
    return 0;
  if (n >= 0 && n != nsp)
    return glow_c2_err(op, "argument '%s' has %d values; the input has %d spatial axes", list, n, nsp);
  return n < 0 ? -1 : 1;
}

static const char *const pad_names[] = {"pad_t", "pad_l", "pad_b", "pad_r"};

/* pads as ONNX orders them: every axis's start, then every axis's end (Caffe2's pads too). */
static int pad_args(const glow_c2_op *op, int nsp, int64_t *pads) {
  int64_t one;
  for (int i = 0; i < 2 * nsp; i++)
    pads[i] = 0;
  if (glow_c2_arg(op, "pad")) {
    if (glow_c2_arg_int(op, "pad", 0, &one))
      return -1;
    for (int i = 0; i < 2 * nsp; i++)
      pads[i] = one;
    return 0;
  }
  int given = 0;
  for (int k = 0; k < 4; k++)
    given += glow_c2_arg(op, pad_names[k]) != NULL;
  if (given) {
    if (nsp != 2)
      return glow_c2_err(op, "arguments pad_t, pad_l, pad_b and pad_r are for 2-D inputs; this input has %d spatial "
                         "axes", nsp);
    if (given != 4)
      return glow_c2_err(op, "pad_t, pad_l, pad_b and pad_r go together: %d of the 4 are given", given);
    for (int k = 0; k < 4; k++)
      if (glow_c2_arg_int(op, pad_names[k], 0, &pads[k]))
        return -1;
    return 0;
  }
  int n = glow_c2_arg_ints(op, "pads", pads, 2 * GLOW_MAX_RANK);
  if (n >= 0 && n != 2 * nsp)
    return glow_c2_err(op, "argument 'pads' has %d values; %d spatial axes take %d", n, nsp, 2 * nsp);
  return n == -1 ? -1 : 0;
}

/* caffe2_legacy.proto's LegacyPadding. */
enum { LEGACY_NOTSET, LEGACY_VALID, LEGACY_SAME, LEGACY_CAFFE_POOLING };

int glow_c2_window_args(const glow_c2_op *op, int nsp, int pooling, glow_c2_window *w) {
  memset(w, 0, sizeof *w);
  w->nsp = nsp;
  int64_t legacy;
  int k = hw_arg(op, "kernel", nsp, 0, w->kernel);
  if (k < 0 || hw_arg(op, "stride", nsp, 1, w->stride) < 0 || hw_arg(op, "dilation", nsp, 1, w->dilation) < 0 ||
      pad_args(op, nsp, w->pads) || glow_c2_arg_int(op, "legacy_pad", LEGACY_NOTSET, &legacy))
    return -1;
  w->has_kernel = k;
  for (int i = 0; i < nsp; i++) {
    if ((k && w->kernel[i] <= 0) || w->stride[i] <= 0 || w->dilation[i] <= 0)
      return glow_c2_err(op, "kernel, stride and dilation must be positive (axis %d: %lld, %lld, %lld)", i,
                         (long long)w->kernel[i], (long long)w->stride[i], (long long)w->dilation[i]);
    if (w->pads[i] < 0 || w->pads[nsp + i] < 0)
      return glow_c2_err(op, "pads must not be negative");
  }
  switch (legacy) {
  case LEGACY_NOTSET: break;
  case LEGACY_VALID: memset(w->pads, 0, sizeof w->pads); break;
  case LEGACY_SAME: w->same = 1; break;
  case LEGACY_CAFFE_POOLING:
    if (!pooling)
      return glow_c2_err(op, "legacy_pad 3 (CAFFE_LEGACY_POOLING) is for pooling ops, not this one");
    w->ceil_mode = 1;
    break;
  default:
    return glow_c2_err(op, "legacy_pad %lld is not one of 0 (NOTSET), 1 (VALID), 2 (SAME), 3 (CAFFE_LEGACY_POOLING)",
                       (long long)legacy);
  }
  return 0;
}
