/* -entry: several models in one bundle, an entry function each (compile-entries.c, entry-layout.c). */
#ifndef GLOW_COMPILE_ENTRIES_H
#define GLOW_COMPILE_ENTRIES_H

#include <stdio.h>

#include "driver/driver.h"

/* One entry of the bundle: its function, its model, and what compiling it made. */
typedef struct glow_entry {
  char *name;                     /* the entry function */
  const char *model, *init_net;   /* as glow_import_model takes them */
  glow_graph *g;
  glow_plan plan;                 /* after glow_entries_layout: offsets in the bundle's areas */
  void *module;                   /* the optimized module's bitcode */
  size_t module_size;
  char *listing_path;             /* -g: <out>/<net>.<entry>.g.txt, absolute */
  char *listing_suffix;           /* -g: .<entry>.g.txt */
  glow_strbuf listing;
} glow_entry;

/* driver/compile-entries.c: the bundle of -model's entry and every -entry's; with a key,
 * also stored in the cache. @return 0, or -1 after errors (nothing written). */
int glow_driver_compile_entries(const glow_driver_options *d, const char *key);

/* driver/entry-layout.c */
/* 0 if no tensor name is an input or output of two entries (one symbol table holds them
 * all), else -1 after naming each such tensor. */
int glow_entries_check_names(const glow_entry *e, int n);
/* The areas laid out for all entries: each entry's constant and mutable areas one after the
 * other (GLOW_ALIGN apart), the activations shared; every plan's offsets moved into the
 * bundle's areas and its sizes made the bundle's. */
void glow_entries_layout(glow_entry *e, int n);
/* The union of the entries, for the header, config and weights: every entry's values (shallow
 * copies), their inputs then their outputs in entry order, at their offsets in the bundle's
 * areas; no nodes. Free with glow_entries_union_free. */
void glow_entries_union(const glow_entry *e, int n, glow_graph *u, glow_plan *up);
void glow_entries_union_free(glow_graph *u, glow_plan *up);
/* The header comment's lines on the entries (symbol names as in u's symbol table). */
void glow_entries_note(const glow_entry *e, int n, const glow_graph *u, glow_strbuf *out);

/* driver/compile.c: -dump-ir's schedule of one graph */
void glow_driver_dump_schedule(const glow_graph *g, const glow_plan *p, FILE *f);

#endif
