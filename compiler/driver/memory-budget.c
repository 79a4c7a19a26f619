/* -ram-size and -flash-size (options.def): what a bundle needs of the board's memory, part
 * by part, against what the user gave. Checked after codegen and before any file is
 * written, so that a bundle that does not fit is never left behind. */
#include <string.h>

#include "driver/driver.h"

/* The object's sections by where they live: flash holds every allocated section with
 * contents (code, read-only data, the initial values of .data), RAM every writable one
 * (.data, .bss); the embedded weights (.rodata.glow.<name>) are counted apart. */
typedef struct obj_sizes {
  int ok; /* 0: not an ELF object this reads */
  uint64_t code, weights, ram;
} obj_sizes;

static uint64_t le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static obj_sizes object_sizes(const uint8_t *b, size_t size, const char *net) {
  obj_sizes s = {0};
  if (size < 64 || memcmp(b, "\177ELF", 4) || (b[4] != 1 && b[4] != 2) || b[5] != 1)
    return s; /* every CPU target's object is little-endian ELF */
  int w = b[4] == 2, word = w ? 8 : 4;
  uint64_t shoff = le(b + (w ? 40 : 32), word), entsize = le(b + (w ? 58 : 46), 2);
  uint64_t shnum = le(b + (w ? 60 : 48), 2), strndx = le(b + (w ? 62 : 50), 2);
  if (entsize < (uint64_t)(w ? 64 : 40) || shoff > size || shnum > (size - shoff) / entsize || strndx >= shnum)
    return s;
  const uint8_t *sh = b + shoff + strndx * entsize;
  uint64_t stroff = le(sh + (w ? 24 : 16), word), strsize = le(sh + (w ? 32 : 20), word);
  if (stroff > size || strsize > size - stroff)
    return s;
  const char *strs = (const char *)b + stroff;
  char weights[320];
  snprintf(weights, sizeof weights, ".rodata.glow.%s", net);
  for (uint64_t i = 0; i < shnum; i++) {
    const uint8_t *h = b + shoff + i * entsize;
    uint64_t name = le(h, 4), type = le(h + 4, 4), flags = le(h + 8, word), bytes = le(h + (w ? 32 : 20), word);
    if (!(flags & 2)) /* SHF_ALLOC: loaded at all */
      continue;
    if (flags & 1) /* SHF_WRITE */
      s.ram += bytes;
    if (type == 8) /* SHT_NOBITS (.bss): no bytes in flash */
      continue;
    int is_weights = name < strsize && memchr(strs + name, 0, strsize - name) && !strcmp(strs + name, weights);
    *(is_weights ? &s.weights : &s.code) += bytes;
  }
  s.ok = 1;
  return s;
}

typedef struct part {
  const char *what;
  uint64_t bytes;
  char note[1024];
} part;

static void print_parts(glow_strbuf *m, const part *p, int n) {
  for (int i = 0; i < n; i++)
    glow_sb_printf(m, "\n  %-24s %10llu%s%s", p[i].what, (unsigned long long)p[i].bytes, p[i].note[0] ? "  " : "",
                   p[i].note);
}

static uint64_t total(const part *p, int n) {
  uint64_t t = 0;
  for (int i = 0; i < n; i++)
    t += p[i].bytes;
  return t;
}

/* -verbose's budget of one memory: "glowc: RAM for bundle 'net': N bytes[ of -ram-size=S (...)]"
 * and its parts. */
static void note_budget(const char *what, const char *opt, const char *net, uint64_t need, uint64_t size,
                        const char *size_arg, const part *pt, int n) {
  glow_strbuf m = {0};
  glow_sb_printf(&m, "glowc: %s for bundle '%s': %llu bytes", what, net, (unsigned long long)need);
  if (size)
    glow_sb_printf(&m, " of -%s-size=%s (%llu bytes, %.0f%%)", opt, size_arg, (unsigned long long)size,
                   100.0 * (double)need / (double)size);
  print_parts(&m, pt, n);
  glow_note("%s\n", m.s);
  glow_sb_free(&m);
}

/* The stack's line: how it was measured, and why it is only a lower bound where it is. */
static void stack_part(part *pt, const glow_stack_usage *st) {
  pt->what = st->unknown[0] ? "stack, at least" : "stack, at most";
  pt->bytes = st->bytes;
  snprintf(pt->note, sizeof pt->note, "deepest path %s; %d for library routines%s%s%s%s", st->path,
           GLOW_STACK_LIBRARY_BYTES, st->own_codegen ? " (glowc's own code generation, not the external LLVM tools')" : "",
           st->unknown[0] ? " (more: " : "", st->unknown, st->unknown[0] ? ")" : "");
}

static int check_ram(const glow_driver_options *d, const glow_plan *p, const obj_sizes *os,
                     const glow_stack_usage *st) {
  const glow_bundle_options *b = &d->bundle;
  const char *net = b->network_name;
  /* Embedded weights stay in flash, unless packed (embedded,zst): then unpacked into RAM. */
  int in_flash = (b->weights & GLOW_WEIGHTS_EMBEDDED) && !(b->weights & GLOW_WEIGHTS_ZST);
  part pt[5] = {{"activations", p->act_size, ""}, {"mutable weights", p->mutable_size, "inputs and outputs"}};
  int n = 2;
  pt[n].what = "constant weights";
  pt[n].bytes = in_flash ? 0 : p->const_size;
  snprintf(pt[n++].note, sizeof pt[0].note, "%s", in_flash ? "in flash, inside the object (-weights=embedded)"
                                                  : b->weights & GLOW_WEIGHTS_EMBEDDED ? "unpacked into RAM from the object"
                                                                                       : "loaded into RAM");
  if (os->ram) {
    pt[n].what = "the object's variables";
    pt[n].bytes = os->ram;
    snprintf(pt[n++].note, sizeof pt[0].note, ".data and .bss of %s.o", net);
  }
  if (st && st->measured)
    stack_part(&pt[n++], st);
  uint64_t need = total(pt, n);
  if (!d->ram_size || need <= d->ram_size) {
    if (d->verbose)
      note_budget("RAM", "ram", net, need, d->ram_size, d->ram_size_arg, pt, n);
    return 0;
  }
  glow_strbuf m = {0};
  glow_sb_printf(&m, "bundle '%s' needs %llu bytes of RAM, more than -ram-size=%s (%llu bytes):", net,
                 (unsigned long long)need, d->ram_size_arg, (unsigned long long)d->ram_size);
  print_parts(&m, pt, n);
  glow_sb_printf(&m, "\n  %-24s %10llu  %llu byte%s over", "total", (unsigned long long)need,
                 (unsigned long long)(need - d->ram_size), need - d->ram_size > 1 ? "s" : "");
  glow_sb_printf(&m, "\nTo fit it:");
  if (!in_flash && p->const_size && !(b->weights & GLOW_WEIGHTS_EMBEDDED))
    glow_sb_printf(&m, " -weights=embedded (the %llu bytes of constant weights stay in flash, inside %s.o);",
                   (unsigned long long)p->const_size, net);
  else if (!in_flash && p->const_size)
    glow_sb_printf(&m, " -weights=embedded without zst (the %llu bytes of constant weights stay in flash, "
                   "unpacked);", (unsigned long long)p->const_size);
  if (!d->load_profile)
    glow_sb_printf(&m, " if the model computes in float, int8 quantization (a profile from model-profiler, then "
                       "-load-profile=<profile.yml>: weights and activations about a quarter of float's);");
  glow_sb_printf(&m, " a board with more RAM; or, if %llu bytes is not what the program leaves the bundle, the "
                     "right -ram-size.", (unsigned long long)d->ram_size);
  glow_error(d->model, "%s", m.s);
  glow_sb_free(&m);
  return -1;
}

static int check_flash(const glow_driver_options *d, const glow_plan *p, const obj_sizes *os, size_t wzst_size) {
  const glow_bundle_options *b = &d->bundle;
  const char *net = b->network_name;
  unsigned w = b->weights;
  part pt[2] = {{"code and read-only data", os->code, ""}, {"constant weights", 0, ""}};
  snprintf(pt[0].note, sizeof pt[0].note, "%s.o's sections", net);
  if (w & GLOW_WEIGHTS_EMBEDDED) {
    pt[1].bytes = os->weights;
    snprintf(pt[1].note, sizeof pt[1].note, "inside %s.o%s", net, w & GLOW_WEIGHTS_ZST ? ", packed" : "");
  } else if ((w & GLOW_WEIGHTS_ZST) && !(w & (GLOW_WEIGHTS_BIN | GLOW_WEIGHTS_TXT))) {
    pt[1].bytes = wzst_size;
    snprintf(pt[1].note, sizeof pt[1].note, "%s.weights.zst, if the program keeps it in flash", net);
  } else {
    pt[1].bytes = p->const_size;
    snprintf(pt[1].note, sizeof pt[1].note, "the weights file, if the program keeps it in flash");
  }
  uint64_t need = total(pt, 2);
  if (!d->flash_size || need <= d->flash_size) {
    if (d->verbose && d->flash_size)
      note_budget("flash", "flash", net, need, d->flash_size, d->flash_size_arg, pt, 2);
    return 0;
  }
  glow_strbuf m = {0};
  glow_sb_printf(&m, "bundle '%s' needs %llu bytes of flash, more than -flash-size=%s (%llu bytes):", net,
                 (unsigned long long)need, d->flash_size_arg, (unsigned long long)d->flash_size);
  print_parts(&m, pt, 2);
  glow_sb_printf(&m, "\n  %-24s %10llu  %llu byte%s over\nTo fit it:", "total", (unsigned long long)need,
                 (unsigned long long)(need - d->flash_size), need - d->flash_size > 1 ? "s" : "");
  if (!d->load_profile)
    glow_sb_printf(&m, " if the model computes in float, int8 quantization (a profile from model-profiler, then "
                       "-load-profile=<profile.yml>: weights about a quarter of float's);");
  if (!(w & GLOW_WEIGHTS_ZST))
    glow_sb_printf(&m, " -weights=embedded,zst (the weights packed in flash, unpacked into RAM);");
  glow_sb_printf(&m, " a board with more flash; or, if %llu bytes is not what the program leaves the bundle, the "
                     "right -flash-size.", (unsigned long long)d->flash_size);
  glow_error(d->model, "%s", m.s);
  glow_sb_free(&m);
  return -1;
}

int glow_memory_check(const glow_driver_options *d, const glow_plan *p, const void *obj, size_t obj_size,
                      size_t wzst_size, const glow_stack_usage *st) {
  if (!d->ram_size && !d->flash_size && !d->verbose)
    return 0;
  obj_sizes os = object_sizes(obj, obj_size, d->bundle.network_name);
  if (!os.ok && (d->ram_size || d->flash_size)) {
    glow_error(d->model, "-%s: the sections of %s.o cannot be read (not a little-endian ELF object)",
               d->ram_size ? "ram-size" : "flash-size", d->bundle.network_name);
    return -1;
  }
  GLOW_ASSERT(!d->ram_size || (st && st->measured)); /* options.c refuses -ram-size for GPU bundles */
  int bad = check_ram(d, p, &os, st);
  bad |= check_flash(d, p, &os, wzst_size);
  return bad ? -1 : 0;
}

int glow_driver_wants_stack(const glow_driver_options *d) {
  return !(d->bundle.llvm_opt || d->bundle.llvm_compiler) || d->ram_size || d->verbose;
}
