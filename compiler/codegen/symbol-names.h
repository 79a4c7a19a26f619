/* The names in a bundle's symbol table and header macros (codegen/symbol-names.c). */
#ifndef GLOW_SYMBOL_NAMES_H
#define GLOW_SYMBOL_NAMES_H

#include "glowc.h"

/* A tensor name as Glow makes it a C identifier (legalizeName): every byte outside
 * [A-Za-z0-9_] becomes '_', an 'A' goes before a leading digit (or an empty name), and a
 * result over 500 bytes is cut to 500 ending in "_trunc_<SpookyHash V2 of it>". malloc'd. */
char *glow_symbol_legalize(const char *name);

/* The symbol names of g's inputs then outputs (symbol-table order), legal and unique as
 * Glow's Module::uniqueName makes them: a name already taken becomes <prefix>__1, __2, ...
 * (the first free), where the prefix is the name less a trailing "__<digits>".
 * Free with glow_symbol_names_free(names, g->ninputs + g->noutputs). */
char **glow_symbol_names(const glow_graph *g);
void glow_symbol_names_free(char **names, int n);

#endif
