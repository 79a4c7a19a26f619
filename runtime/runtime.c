/* glowc runtime: weights, instances, lookup by name, run. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glow-runtime.h"
#include "runtime-internal.h"

static _Thread_local char last_error[512];

int glow_rt_fail(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return status;
}

const char *glow_last_error(void) { return last_error; }

const char *glow_status_string(int status) {
  switch (status) {
  case GLOW_RT_OK: return "ok";
  case GLOW_RT_ERR_ARG: return "invalid argument";
  case GLOW_RT_ERR_IO: return "cannot read file";
  case GLOW_RT_ERR_SIZE: return "size mismatch";
  case GLOW_RT_ERR_NOMEM: return "out of memory";
  case GLOW_RT_ERR_NOT_FOUND: return "not found";
  case GLOW_RT_ERR_BUNDLE: return "bundle error";
  case GLOW_RT_ERR_FORMAT: return "bad packed weights";
  case GLOW_RT_ERR_CHECKSUM: return "checksum mismatch";
  case GLOW_RT_ERR_DEVICE: return "device error";
  case GLOW_RT_ERR_TYPE: return "type or shape mismatch";
  default: return "unknown status";
  }
}

uint64_t glow_rt_alignment(const glow_bundle *b) { return b->config->alignment ? b->config->alignment : 64; }

void *glow_rt_alloc_area(uint64_t size, uint64_t align) {
  void *p = NULL;
  if (size > SIZE_MAX - align) /* a 32-bit program: the size would be cut to its low bits */
    return NULL;
  if (posix_memalign(&p, (size_t)align, (size_t)(size ? size : align)))
    return NULL;
  memset(p, 0, (size_t)(size ? size : align));
  return p;
}

int glow_weights_load(const glow_bundle *b, const char *path, glow_weights **out) {
  if (!b || !path || !out)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_weights_load: NULL argument");
  *out = NULL;
  uint64_t want = b->config->constantWeightVarsMemSize;
  FILE *f = fopen(path, "rb");
  if (!f)
    return glow_rt_fail(GLOW_RT_ERR_IO, "%s: cannot open weights file: %s", path, strerror(errno));
  glow_weights *w = calloc(1, sizeof *w);
  uint8_t *data = glow_rt_alloc_area(want, glow_rt_alignment(b));
  if (!w || !data) {
    fclose(f);
    free(w);
    free(data);
    return glow_rt_fail(GLOW_RT_ERR_NOMEM, "%s: cannot allocate %llu bytes for the weights", path, (unsigned long long)want);
  }
  size_t got = fread(data, 1, (size_t)want, f);
  int extra = fgetc(f) != EOF, err = ferror(f);
  fclose(f);
  if (err || got != want || extra) {
    free(w);
    free(data);
    if (err)
      return glow_rt_fail(GLOW_RT_ERR_IO, "%s: read error", path);
    return glow_rt_fail(GLOW_RT_ERR_SIZE, "%s: %s than the %llu bytes of constant weights bundle '%s' needs "
                "(a weights file from another model or compile?)", path, got != want ? "shorter" : "longer",
                (unsigned long long)want, b->name);
  }
  w->bundle = b;
  w->data = data;
  w->owned = 1;
  *out = w;
  return GLOW_RT_OK;
}

int glow_weights_wrap(const glow_bundle *b, const void *data, size_t size, glow_weights **out) {
  if (!b || !out || (!data && size))
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_weights_wrap: NULL argument");
  *out = NULL;
  if (size != b->config->constantWeightVarsMemSize)
    return glow_rt_fail(GLOW_RT_ERR_SIZE, "weights of %zu bytes given; bundle '%s' needs %llu", size, b->name,
                (unsigned long long)b->config->constantWeightVarsMemSize);
  if ((uintptr_t)data % glow_rt_alignment(b))
    return glow_rt_fail(GLOW_RT_ERR_ARG, "weights at %p are not aligned to %llu bytes", data,
                (unsigned long long)glow_rt_alignment(b));
  glow_weights *w = calloc(1, sizeof *w);
  if (!w)
    return glow_rt_fail(GLOW_RT_ERR_NOMEM, "out of memory");
  w->bundle = b;
  w->data = (uint8_t *)data;
  *out = w;
  return GLOW_RT_OK;
}

int glow_rt_weights_adopt(const glow_bundle *b, uint8_t *data, glow_weights **out) {
  glow_weights *w = calloc(1, sizeof *w);
  if (!w) {
    free(data);
    return glow_rt_fail(GLOW_RT_ERR_NOMEM, "out of memory");
  }
  w->bundle = b;
  w->data = data;
  w->owned = 1;
  *out = w;
  return GLOW_RT_OK;
}

const void *glow_weights_data(const glow_weights *w) { return w ? w->data : NULL; }

void glow_weights_free(glow_weights *w) {
  if (!w)
    return;
  if (w->owned)
    free(w->data);
  free(w);
}

int glow_instance_create(const glow_bundle *b, const glow_weights *w, glow_instance **out) {
  if (!b || !w || !out)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_instance_create: NULL argument");
  *out = NULL;
  if (w->bundle->config != b->config)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "weights were loaded for bundle '%s', not '%s'", w->bundle->name, b->name);
  glow_instance *inst = calloc(1, sizeof *inst);
  uint8_t *m = glow_rt_alloc_area(b->config->mutableWeightVarsMemSize, glow_rt_alignment(b));
  uint8_t *a = glow_rt_alloc_area(b->config->activationsMemSize, glow_rt_alignment(b));
  if (!inst || !m || !a) {
    free(inst);
    free(m);
    free(a);
    return glow_rt_fail(GLOW_RT_ERR_NOMEM, "cannot allocate the memory areas of bundle '%s'", b->name);
  }
  inst->bundle = b;
  inst->weights = w;
  inst->mutable_area = m;
  inst->activations = a;
  *out = inst;
  return GLOW_RT_OK;
}

void glow_instance_free(glow_instance *inst) {
  if (!inst)
    return;
  if (inst->device_free)
    inst->device_free(inst);
  free(inst->mutable_area);
  free(inst->activations);
  free(inst);
}

int glow_instance_tensor_count(const glow_instance *inst) { return inst ? (int)inst->bundle->config->numSymbols : 0; }

int glow_instance_tensor(glow_instance *inst, int i, glow_tensor_ref *t) {
  if (!inst || !t)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_instance_tensor: NULL argument");
  const struct BundleConfig *c = inst->bundle->config;
  if (i < 0 || (uint64_t)i >= c->numSymbols)
    return glow_rt_fail(GLOW_RT_ERR_NOT_FOUND, "bundle '%s' has %llu inputs and outputs; no index %d", inst->bundle->name,
                (unsigned long long)c->numSymbols, i);
  const struct SymbolTableEntry *s = &c->symbolTable[i];
  const struct GlowTensorInfo *ti = &inst->bundle->tensors[i];
  static const size_t elem_size[17] = {0, 4, 1, 1, 2, 2, 4, 8, 0, 1, 2, 8, 4, 8, 0, 0, 2};
  t->name = ti->name;
  t->symbol = s->name;
  t->dtype = (int)ti->dtype;
  t->rank = (int)ti->rank;
  t->dims = ti->dims;
  t->numel = s->size;
  t->bytes = (size_t)s->size * (ti->dtype < 17 ? elem_size[ti->dtype] : 0);
  t->data = inst->mutable_area + s->offset;
  t->is_input = ti->role == 1;
  return GLOW_RT_OK;
}

/* The index of the symbol called `name`, by the model's names first, then by the symbol-table
 * names (Glow's legalized ones); role 1 or 2 looks at inputs or outputs only, 0 at both. -1: none. */
static int lookup(const glow_instance *inst, const char *name, int role) {
  const glow_bundle *b = inst->bundle;
  uint64_t n = b->config->numSymbols;
  for (int by_symbol = 0; by_symbol < 2; by_symbol++)
    for (uint64_t i = 0; i < n; i++)
      if ((!role || b->tensors[i].role == (uint64_t)role) &&
          !strcmp(by_symbol ? b->config->symbolTable[i].name : b->tensors[i].name, name))
        return (int)i;
  return -1;
}

/* "bundle 'net' has no <what> 'x'; it has: 'a.b' (a_b) 'y'": the names of that role, into last_error. */
static int not_found(const glow_instance *inst, const char *name, int role, const char *what, const char *has) {
  const glow_bundle *b = inst->bundle;
  size_t k = (size_t)snprintf(last_error, sizeof last_error, "bundle '%s' has no %s '%s'; %s:", b->name, what, name, has);
  for (uint64_t i = 0; i < b->config->numSymbols && k < sizeof last_error; i++) {
    const char *model = b->tensors[i].name, *symbol = b->config->symbolTable[i].name;
    if (role && b->tensors[i].role != (uint64_t)role)
      continue;
    k += (size_t)snprintf(last_error + k, sizeof last_error - k, " '%s'", model);
    if (strcmp(model, symbol) && k < sizeof last_error)
      k += (size_t)snprintf(last_error + k, sizeof last_error - k, " (%s)", symbol);
  }
  return GLOW_RT_ERR_NOT_FOUND;
}

int glow_instance_find(glow_instance *inst, const char *name, glow_tensor_ref *t) {
  if (!inst || !name || !t)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_instance_find: NULL argument");
  int i = lookup(inst, name, 0);
  if (i < 0)
    return not_found(inst, name, 0, "input or output", "it has");
  return glow_instance_tensor(inst, i, t);
}

static const char *const dtype_names[17] = {"?",      "float",  "uint8",  "int8",    "uint16", "int16",
                                            "int32",  "int64",  "string", "bool",    "float16", "double",
                                            "uint32", "uint64", "cx64",   "cx128",   "bfloat16"};

static const char *dtype_name(int dt) { return dt >= 0 && dt < 17 ? dtype_names[dt] : "?"; }

/* "float[1,3,224,224]" into buf. */
static const char *type_str(char *buf, size_t n, int dtype, int rank, const uint64_t *udims, const int64_t *sdims) {
  size_t k = (size_t)snprintf(buf, n, "%s[", dtype_name(dtype));
  for (int d = 0; d < rank && k < n; d++)
    k += (size_t)snprintf(buf + k, n - k, "%s%lld", d ? "," : "", udims ? (long long)udims[d] : (long long)sdims[d]);
  if (k < n)
    snprintf(buf + k, n - k, "]");
  return buf;
}

/* The input (want_input) or output of that name, or an error listing those there are. */
static int find_role(glow_instance *inst, const char *name, int want_input, glow_tensor_ref *t) {
  const char *role = want_input ? "input" : "output";
  if (!inst || !name || !t)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_instance_%s: NULL argument", want_input ? "feed" : "fetch");
  int i = lookup(inst, name, want_input ? 1 : 2);
  if (i < 0)
    return not_found(inst, name, want_input ? 1 : 2, role, want_input ? "its inputs" : "its outputs");
  return glow_instance_tensor(inst, i, t);
}

int glow_instance_feed(glow_instance *inst, const char *name, int dtype, int rank, const int64_t *dims,
                       const void *data, size_t bytes) {
  glow_tensor_ref t = {0};
  int rc = find_role(inst, name, 1, &t);
  if (rc)
    return rc;
  int same = dtype == t.dtype && rank == t.rank && (data || !bytes) && (rank == 0 || dims);
  for (int d = 0; same && d < rank; d++)
    same = dims[d] >= 0 && (uint64_t)dims[d] == t.dims[d];
  char want[160], got[160];
  if (!same || bytes != t.bytes)
    return glow_rt_fail(GLOW_RT_ERR_TYPE, "bundle '%s': input '%s' is %s (%zu bytes); given %s (%zu bytes)",
                        inst->bundle->name, name, type_str(want, sizeof want, t.dtype, t.rank, t.dims, NULL), t.bytes,
                        dims || !rank ? type_str(got, sizeof got, dtype, rank, NULL, dims) : "no dims", bytes);
  memcpy(t.data, data, bytes);
  return GLOW_RT_OK;
}

int glow_instance_fetch(glow_instance *inst, const char *name, int dtype, void *data, size_t bytes) {
  glow_tensor_ref t = {0};
  int rc = find_role(inst, name, 0, &t);
  if (rc)
    return rc;
  char have[160];
  if (dtype != t.dtype || bytes < t.bytes || !data)
    return glow_rt_fail(GLOW_RT_ERR_TYPE, "bundle '%s': output '%s' is %s (%zu bytes); asked for %s into %zu bytes",
                        inst->bundle->name, name, type_str(have, sizeof have, t.dtype, t.rank, t.dims, NULL), t.bytes,
                        dtype_name(dtype), bytes);
  memcpy(data, t.data, t.bytes);
  return GLOW_RT_OK;
}

int glow_instance_run(glow_instance *inst) {
  if (!inst)
    return glow_rt_fail(GLOW_RT_ERR_ARG, "glow_instance_run: NULL argument");
  if (inst->device_run)
    return inst->device_run(inst);
  int rc = inst->bundle->entry(inst->weights->data, inst->mutable_area, inst->activations);
  if (rc != GLOW_SUCCESS)
    return glow_rt_fail(GLOW_RT_ERR_BUNDLE, "bundle '%s' returned error %d", inst->bundle->name, rc);
  return GLOW_RT_OK;
}
