/* Test driver: runs a dynamic-API bundle on a test case folder (input_N.pb,
 * output_N.pb as in the ONNX node tests) and compares outputs
 * (glow_test_case, run-model.h; the programs are run-bundle-main.c and
 * run-bundle-dl.c).
 *
 * Elementwise check: |got - want| <= atol + rtol * |want| for floats, exact
 * for integers and bools. -max-rel E instead requires
 * max|got - want| / max|want| <= E (the real-model criterion). Prints the
 * errors. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compare.h"
#include "glowc.h"
#include "run-model.h"

/* An area that ends where an inaccessible page begins (and starts after another such
 * page, in the same mapping): a bundle that reads or writes past the end of any of its
 * three areas faults instead of passing. The area's size is rounded up to its alignment,
 * so up to align - 1 bytes past the exact end go unnoticed, as do reads before the start
 * within the page below it. The mapping is returned in m for unguard(). */
typedef struct {
  uint8_t *base;
  size_t span;
  uint8_t *guard; /* the first inaccessible byte past the area */
} mapping;

static void *guarded(uint64_t size, uint64_t align, mapping *m) {
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), body = (size + align - 1) / align * align;
  if (!body)
    body = align;
  uint64_t pages = (body + page - 1) / page * page;
  m->span = (size_t)(pages + 2 * page);
  m->base = mmap(NULL, m->span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m->base == MAP_FAILED) {
    m->base = NULL;
    return NULL;
  }
  if (align > page || mprotect(m->base, page, PROT_NONE) || mprotect(m->base + page + pages, page, PROT_NONE))
    return NULL;
  m->guard = m->base + page + pages;
  return m->guard - body; /* zeroed, as fresh anonymous pages are */
}

static void unguard(const mapping *m) {
  if (m->base)
    munmap(m->base, m->span);
}

static int count_inputs(const char *dir) {
  int n = 0;
  char path[4096];
  for (;; n++) {
    snprintf(path, sizeof path, "%s/input_%d.pb", dir, n);
    FILE *f = fopen(path, "rb");
    if (!f)
      return n;
    fclose(f);
  }
}

int glow_test_case(const glow_bundle *b, const char *weights, const char *case_dir, const glow_tolerance *tol) {
  const struct BundleConfig *c = b->config;
  const struct GlowTensorInfo *model_tensor_info = b->tensors;
  mapping cm = {0}, mm = {0}, am = {0};
  uint8_t *cw = guarded(c->constantWeightVarsMemSize, c->alignment, &cm);
  uint8_t *mw = guarded(c->mutableWeightVarsMemSize, c->alignment, &mm);
  uint8_t *act = guarded(c->activationsMemSize, c->alignment, &am);
  FILE *wf = fopen(weights, "rb");
  if (!cw || !mw || !act || !wf) {
    fprintf(stderr, "run-bundle: cannot open %s or allocate memory\n", weights);
    return 2;
  }
  if (fread(cw, 1, c->constantWeightVarsMemSize, wf) != c->constantWeightVarsMemSize) {
    fprintf(stderr, "run-bundle: %s is shorter than the bundle's %llu bytes of constants\n", weights,
            (unsigned long long)c->constantWeightVarsMemSize);
    return 2;
  }
  fclose(wf);
  int nin = count_inputs(case_dir);
  char path[4096];
  /* Inputs come first in the symbol table, in graph-input order. A test input
   * is matched by its TensorProto name, the model's (tensor_info's: the symbol
   * table holds Glow's legalized names); inputs bound at compile time
   * (-bind-input) are not in the bundle and are skipped. */
  int nsym_in = 0;
  for (int i = 0; i < nin; i++) {
    snprintf(path, sizeof path, "%s/input_%d.pb", case_dir, i);
    glow_tensor t;
    char *name = NULL;
    if (glow_tensor_pb_load(path, &t.dt, &t.rank, t.dims, &t.data, &name)) {
      fprintf(stderr, "run-bundle: cannot load %s\n", path);
      return 2;
    }
    int s = -1;
    for (uint64_t k = 0; k < c->numSymbols && s < 0; k++)
      if (name && *name && !strcmp(name, model_tensor_info[k].name))
        s = (int)k;
    if (s < 0 && !(name && *name))
      s = i;
    if (s < 0 || (uint64_t)s >= c->numSymbols) {
      free(t.data);
      free(name);
      continue;
    }
    nsym_in++;
    const struct GlowTensorInfo *ti = &model_tensor_info[s];
    int64_t n = 1;
    for (int d = 0; d < t.rank; d++)
      n *= t.dims[d];
    if (!glow_test_dtype_ok((glow_dtype)ti->dtype, t.dt) || (uint64_t)n != c->symbolTable[s].size) {
      fprintf(stderr, "run-bundle: input %d (%s) has type %s and %lld elements; the bundle expects %s and %llu\n", i,
              ti->name, glow_dtype_name(t.dt), (long long)n, glow_dtype_name((glow_dtype)ti->dtype),
              (unsigned long long)c->symbolTable[s].size);
      return 2;
    }
    memcpy(mw + c->symbolTable[s].offset, t.data, (size_t)n * glow_dtype_size(t.dt));
    free(t.data);
    free(name);
  }
  int rc = glow_test_run_model(b, cw, mw, act);
  /* The check of the guard itself (unit.harness-guard-pages): one byte past the activations. */
  if (getenv("GLOWC_TEST_GUARD_OVERRUN"))
    *(volatile uint8_t *)am.guard = 1;
  if (rc < 0)
    return 2;
  if (rc != 0) {
    printf("bundle returned an error\n");
    return 1;
  }
  int bad = 0;
  for (uint64_t s = (uint64_t)nsym_in, o = 0; s < c->numSymbols; s++, o++) {
    snprintf(path, sizeof path, "%s/output_%llu.pb", case_dir, (unsigned long long)o);
    glow_tensor want;
    char *name = NULL;
    if (glow_tensor_pb_load(path, &want.dt, &want.rank, want.dims, &want.data, &name)) {
      fprintf(stderr, "run-bundle: cannot load %s\n", path);
      return 2;
    }
    const struct GlowTensorInfo *ti = &model_tensor_info[s];
    int64_t n = 1;
    for (uint64_t d = 0; d < ti->rank; d++)
      n *= (int64_t)ti->dims[d];
    bad |= glow_test_compare(ti->name, (glow_dtype)ti->dtype, n, mw + c->symbolTable[s].offset, &want, tol);
    free(want.data);
    free(name);
  }
  unguard(&cm);
  unguard(&mm);
  unguard(&am);
  return bad;
}
