/* Kernel calls: the kernel symbol, its tensors and its constant parameters. */
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

void glow_kcall_free(glow_kcall *kc) {
  free(kc->params);
  kc->params = NULL;
  kc->nparams = kc->capparams = 0;
}
