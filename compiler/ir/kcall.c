/* Kernel calls: the kernel symbol, its tensors and its constant parameters; or a
 * call to a function of the bundle's caller with constant and tensor arguments. */
#include <stdlib.h>
#include <string.h>

#include "glowc.h"

void glow_kcall_init(glow_kcall *kc, const char *kernel_fmt, ...) {
  va_list ap;
  memset(kc, 0, sizeof *kc);
  va_start(ap, kernel_fmt);
  vsnprintf(kc->kernel, sizeof kc->kernel, kernel_fmt, ap);
  va_end(ap);
}

void glow_kcall_tensor(glow_kcall *kc, int value_id) {
  GLOW_ASSERT(kc->ntensors < (int)(sizeof kc->tensors / sizeof kc->tensors[0]));
  kc->tensors[kc->ntensors++] = value_id;
}

void glow_kcall_param(glow_kcall *kc, int64_t p) {
  if (kc->nparams == kc->capparams) {
    kc->capparams = kc->capparams ? kc->capparams * 2 : 16;
    kc->params = glow_xrealloc(kc->params, sizeof(int64_t) * (size_t)kc->capparams);
  }
  kc->params[kc->nparams++] = p;
}

int64_t glow_f2p(double f) {
  int64_t p;
  memcpy(&p, &f, sizeof p);
  return p;
}

void glow_kcall_paramf(glow_kcall *kc, double f) { glow_kcall_param(kc, glow_f2p(f)); }

void glow_kcall_params(glow_kcall *kc, int n, const int64_t *p) {
  for (int i = 0; i < n; i++)
    glow_kcall_param(kc, p[i]);
}

void glow_kcall_split(glow_kcall *kc, int param, const int64_t *bytes) {
  GLOW_ASSERT(!kc->decl && param >= 0 && param < kc->nparams);
  kc->split_param = param;
  kc->split_n = kc->params[param];
  for (int i = 0; i < kc->ntensors; i++)
    kc->split_bytes[i] = bytes[i];
  /* Slices start on 64-byte lines of the output, so that parts do not write one line. */
  int64_t unit = bytes[0] > 0 ? bytes[0] : 64;
  kc->split_align = unit >= 64 ? 1 : (64 + unit - 1) / unit;
}

void glow_kcall_free(glow_kcall *kc) {
  free(kc->params);
  kc->params = NULL;
  kc->nparams = kc->capparams = 0;
  for (int i = 0; i < kc->nargs; i++)
    free(kc->args[i].bytes);
  kc->nargs = 0;
}

void glow_kcall_extern(glow_kcall *kc, const char *name, const char *decl) {
  glow_kcall_init(kc, "%s", name);
  kc->decl = decl;
}

static glow_karg *arg_add(glow_kcall *kc, glow_karg_kind kind) {
  GLOW_ASSERT(kc->decl && kc->nargs < GLOW_KCALL_MAX_ARGS);
  glow_karg *a = &kc->args[kc->nargs++];
  memset(a, 0, sizeof *a);
  a->kind = kind;
  return a;
}

void glow_kcall_arg_int(glow_kcall *kc, int64_t v) { arg_add(kc, GLOW_KARG_INT)->i = v; }

void glow_kcall_arg_bytes(glow_kcall *kc, glow_karg_kind kind, const void *data, size_t n) {
  GLOW_ASSERT(kind == GLOW_KARG_STRING || kind == GLOW_KARG_BYTES);
  glow_karg *a = arg_add(kc, kind);
  a->bytes = glow_xmalloc(n + 1);
  if (n)
    memcpy(a->bytes, data, n);
  a->bytes[n] = 0;
  a->i = (int64_t)n;
}

void glow_kcall_arg_tensors(glow_kcall *kc, glow_karg_kind kind, int first, int n) {
  GLOW_ASSERT((kind == GLOW_KARG_ADDRS || kind == GLOW_KARG_SIZES) && first >= 0 && n >= 0 &&
              first + n <= kc->ntensors);
  glow_karg *a = arg_add(kc, kind);
  a->first = first;
  a->n = n;
}
