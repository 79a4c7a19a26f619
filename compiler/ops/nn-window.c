/* Sliding-window geometry: kernel_shape, strides, dilations, pads, auto_pad. */
#include <string.h>

#include "ops/nn-util.h"

static int read_ints(const glow_graph *g, const glow_node *n, const char *name, int nsp, int64_t dflt, int64_t *v) {
  const int64_t *a;
  int k = glow_attr_ints(n, name, &a);
  for (int i = 0; i < nsp; i++)
    v[i] = dflt;
  if (k < 0)
    return 0;
  if (k != nsp)
    return glow_node_error(g, n, "attribute %s has %d values, expected %d (one per spatial axis)", name, k, nsp);
  for (int i = 0; i < nsp; i++)
    if (a[i] < 1)
      return glow_node_error(g, n, "attribute %s must be positive (got %lld)", name, (long long)a[i]);
  memcpy(v, a, sizeof(int64_t) * (size_t)nsp);
  return 0;
}

int glow_nn_win_get(const glow_graph *g, const glow_node *n, const glow_value *x, const int64_t *kernel, int ceil_mode,
                    glow_nn_win *w) {
  memset(w, 0, sizeof *w);
  if (x->rank < 3 || x->rank > 5) {
    char s[128];
    return glow_node_error(g, n, "input %s must have 1 to 3 spatial axes (rank 3 to 5)",
                           glow_shape_str(x, s, sizeof s));
  }
  int nsp = w->nsp = x->rank - 2;
  for (int i = 0; i < nsp; i++)
    w->in[i] = x->dims[2 + i];
  const int64_t *ks;
  int nk = glow_attr_ints(n, "kernel_shape", &ks);
  if (nk >= 0 && nk != nsp)
    return glow_node_error(g, n, "kernel_shape has %d values, expected %d", nk, nsp);
  if (nk < 0 && !kernel)
    return glow_node_error(g, n, "attribute kernel_shape is required");
  for (int i = 0; i < nsp; i++) {
    w->k[i] = nk >= 0 ? ks[i] : kernel[i];
    if (kernel && w->k[i] != kernel[i])
      return glow_node_error(g, n, "kernel_shape does not match the weight tensor's spatial axes");
    if (w->k[i] < 1)
      return glow_node_error(g, n, "kernel_shape values must be positive");
  }
  if (read_ints(g, n, "strides", nsp, 1, w->s) || read_ints(g, n, "dilations", nsp, 1, w->d))
    return -1;
  const char *ap = glow_attr_string(n, "auto_pad", "NOTSET");
  const int64_t *pads;
  int np = glow_attr_ints(n, "pads", &pads);
  if (np >= 0 && np != 2 * nsp)
    return glow_node_error(g, n, "pads has %d values, expected %d", np, 2 * nsp);
  for (int i = 0; i < nsp; i++) {
    int64_t ek = (w->k[i] - 1) * w->d[i] + 1, in = w->in[i];
    if (!strcmp(ap, "NOTSET")) {
      w->pb[i] = np >= 0 ? pads[i] : 0;
      w->pe[i] = np >= 0 ? pads[nsp + i] : 0;
      if (w->pb[i] < 0 || w->pe[i] < 0)
        return glow_node_error(g, n, "negative pads are not supported");
      int64_t span = in + w->pb[i] + w->pe[i] - ek;
      if (span < 0)
        return glow_node_error(g, n, "the window (extent %lld) is larger than the padded input (%lld) on axis %d",
                               (long long)ek, (long long)(in + w->pb[i] + w->pe[i]), 2 + i);
      w->out[i] = (ceil_mode ? (span + w->s[i] - 1) / w->s[i] : span / w->s[i]) + 1;
      /* A last window starting in the end padding is dropped (as ONNX Runtime and PyTorch do). */
      if (ceil_mode && (w->out[i] - 1) * w->s[i] >= in + w->pb[i])
        w->out[i]--;
    } else if (!strcmp(ap, "VALID")) {
      if (in < ek)
        return glow_node_error(g, n, "the window (extent %lld) is larger than the input (%lld) on axis %d",
                               (long long)ek, (long long)in, 2 + i);
      w->out[i] = (in - ek) / w->s[i] + 1;
    } else if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
      w->out[i] = (in + w->s[i] - 1) / w->s[i];
      int64_t total = (w->out[i] - 1) * w->s[i] + ek - in;
      if (total < 0)
        total = 0;
      w->pb[i] = ap[5] == 'U' ? total / 2 : total - total / 2;
      w->pe[i] = total - w->pb[i];
    } else {
      return glow_node_error(g, n, "auto_pad '%s' is not supported", ap);
    }
  }
  return 0;
}

int glow_nn_win_get_transposed(const glow_graph *g, const glow_node *n, const glow_value *x, const int64_t *kernel,
                               glow_nn_win *w) {
  memset(w, 0, sizeof *w);
  if (x->rank < 3 || x->rank > 5) {
    char s[128];
    return glow_node_error(g, n, "input %s must have 1 to 3 spatial axes (rank 3 to 5)",
                           glow_shape_str(x, s, sizeof s));
  }
  int nsp = w->nsp = x->rank - 2;
  const int64_t *ks, *os, *pads;
  int nk = glow_attr_ints(n, "kernel_shape", &ks), nos = glow_attr_ints(n, "output_shape", &os);
  int np = glow_attr_ints(n, "pads", &pads);
  if (nk >= 0 && nk != nsp)
    return glow_node_error(g, n, "kernel_shape has %d values, expected %d", nk, nsp);
  if (np >= 0 && np != 2 * nsp)
    return glow_node_error(g, n, "pads has %d values, expected %d", np, 2 * nsp);
  if (nos >= 0 && nos != nsp && nos != nsp + 2)
    return glow_node_error(g, n, "output_shape has %d values, expected %d", nos, nsp);
  if (nos == nsp + 2)
    os += 2; /* a full N, C, spatial shape */
  int64_t op[3];
  if (read_ints(g, n, "strides", nsp, 1, w->s) || read_ints(g, n, "dilations", nsp, 1, w->d))
    return -1;
  const int64_t *opa;
  int nop = glow_attr_ints(n, "output_padding", &opa);
  if (nop >= 0 && nop != nsp)
    return glow_node_error(g, n, "output_padding has %d values, expected %d", nop, nsp);
  const char *ap = glow_attr_string(n, "auto_pad", "NOTSET");
  int upper = !strcmp(ap, "SAME_UPPER"), same = upper || !strcmp(ap, "SAME_LOWER");
  if (!same && strcmp(ap, "NOTSET") && strcmp(ap, "VALID"))
    return glow_node_error(g, n, "auto_pad '%s' is not supported", ap);
  for (int i = 0; i < nsp; i++) {
    w->in[i] = x->dims[2 + i];
    w->k[i] = nk >= 0 ? ks[i] : kernel[i];
    if (w->k[i] != kernel[i])
      return glow_node_error(g, n, "kernel_shape does not match the weight tensor's spatial axes");
    op[i] = nop >= 0 ? opa[i] : 0;
    if (op[i] < 0 || (op[i] >= w->s[i] && op[i] >= w->d[i]))
      return glow_node_error(g, n, "output_padding %lld must be smaller than the stride or the dilation",
                             (long long)op[i]);
    int64_t full = w->s[i] * (w->in[i] - 1) + op[i] + (w->k[i] - 1) * w->d[i] + 1;
    if (nos >= 0 || same) {
      w->out[i] = nos >= 0 ? os[i] : w->in[i] * w->s[i];
      /* A larger output_shape than the taps reach leaves the extra end positions at the bias (as ONNX Runtime). */
      int64_t total = full > w->out[i] ? full - w->out[i] : 0;
      w->pb[i] = upper ? total / 2 : total - total / 2;
      w->pe[i] = total - w->pb[i];
    } else {
      if (!strcmp(ap, "NOTSET") && np >= 0) {
        w->pb[i] = pads[i];
        w->pe[i] = pads[nsp + i];
      }
      if (w->pb[i] < 0 || w->pe[i] < 0)
        return glow_node_error(g, n, "negative pads are not supported");
      w->out[i] = full - w->pb[i] - w->pe[i];
      if (w->out[i] < 1)
        return glow_node_error(g, n, "the output would be empty on axis %d", 2 + i);
    }
  }
  return 0;
}

glow_abi_win glow_nn_win_abi(const glow_nn_win *w) {
  glow_abi_win a;
  for (int i = 0; i < 3; i++) {
    int j = i - (3 - w->nsp); /* leading axes: extent 1, no padding */
    a.in[i] = j < 0 ? 1 : w->in[j];
    a.out[i] = j < 0 ? 1 : w->out[j];
    a.k[i] = j < 0 ? 1 : w->k[j];
    a.s[i] = j < 0 ? 1 : w->s[j];
    a.d[i] = j < 0 ? 1 : w->d[j];
    a.pb[i] = j < 0 ? 0 : w->pb[j];
    a.pe[i] = j < 0 ? 0 : w->pe[j];
  }
  return a;
}

void glow_nn_win_out_dims(const glow_value *x, const glow_nn_win *w, int64_t *dims) {
  dims[0] = x->dims[0];
  dims[1] = x->dims[1];
  for (int i = 0; i < w->nsp; i++)
    dims[2 + i] = w->out[i];
}

int64_t glow_nn_win_offset(int nsp, const int64_t *ext, const int64_t *pos) {
  int64_t o = 0;
  for (int i = 0; i < nsp; i++)
    o = o * ext[i] + pos[i];
  return o;
}

int glow_nn_win_next(int nsp, const int64_t *ext, int64_t *pos) {
  for (int i = nsp - 1; i >= 0; i--) {
    if (++pos[i] < ext[i])
      return 1;
    pos[i] = 0;
  }
  return 0;
}
