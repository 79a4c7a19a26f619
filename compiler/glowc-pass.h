/* glowc-pass.h: the interface between glowc and graph-pass plugins.
 *
 * A plugin is a shared library that model-compiler loads with -load-pass=<lib.so>.
 * It includes only this header and links nothing of glowc: everything it may do to
 * the graph goes through the table of functions (glowc_pass_api) glowc hands it.
 *
 *   #include <glowc-pass.h>
 *
 *   static int count_convs(const glowc_pass_api *api, glowc_graph *g, void *user) {
 *     int n = 0;
 *     for (int i = 0; i < api->node_count(g); i++)
 *       n += !api->node_erased(g, i) && !strcmp(api->node_op(g, i), "Conv");
 *     api->note(g, "%d Conv nodes\n", n);
 *     return 0;
 *   }
 *
 *   GLOWC_PASS_PLUGIN(api, registry) {
 *     return api->register_pass(registry, "count_convs", "counts the Conv nodes", count_convs, NULL);
 *   }
 *
 * The graph is glowc's IR after shapes were inferred, constant subgraphs evaluated and
 * BatchNormalization folded into convolutions: ONNX ops (by their op_type names, with ONNX
 * attribute names and semantics), values with known dtype (ONNX TensorProto.DataType
 * numbers) and shape. Plugin passes run after glowc's own graph passes up to fold-qdq and
 * before the rest (model-compiler -print-passes -load-pass=<lib> shows where).
 *
 * Ids: nodes and values are numbered from 0. Node ids stay valid during one pass; after a
 * pass glowc puts the nodes back in topological order, so ids are not kept between passes.
 * Nodes a pass adds are appended; they may read values produced later in the list, and
 * glowc orders them afterwards (a cycle is an error naming the pass).
 *
 * Errors: a function given a bad id or argument returns -1 (or NULL) and records an error
 * naming the pass; the pass should then return non-zero. A pass that returns non-zero,
 * that reported an error, or that crashes stops the compile with a message naming the
 * pass and its library, and no bundle file is written.
 *
 * Versions: GLOWC_PASS_ABI_VERSION changes when a function's meaning or the layout
 * before `size` changes; glowc refuses a plugin built for another version. Functions
 * added later are appended to the table: a plugin that needs one checks api->size. */
#ifndef GLOWC_PASS_H
#define GLOWC_PASS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GLOWC_PASS_ABI_VERSION 1

/* Value kinds (glowc_pass_api.value_kind). */
enum { GLOWC_VALUE_ACTIVATION = 0, GLOWC_VALUE_CONSTANT = 1, GLOWC_VALUE_INPUT = 2 };
/* Attribute types: ONNX AttributeProto.AttributeType numbers (0: no such attribute). */
enum {
  GLOWC_ATTR_NONE = 0,
  GLOWC_ATTR_FLOAT = 1,
  GLOWC_ATTR_INT = 2,
  GLOWC_ATTR_STRING = 3,
  GLOWC_ATTR_TENSOR = 4,
  GLOWC_ATTR_GRAPH = 5,
  GLOWC_ATTR_FLOATS = 6,
  GLOWC_ATTR_INTS = 7,
  GLOWC_ATTR_STRINGS = 8
};
/* A few dtypes (ONNX TensorProto.DataType numbers); value_dtype returns any of ONNX's. */
enum { GLOWC_DTYPE_FLOAT = 1, GLOWC_DTYPE_UINT8 = 2, GLOWC_DTYPE_INT8 = 3, GLOWC_DTYPE_INT32 = 6, GLOWC_DTYPE_INT64 = 7 };

typedef struct glowc_graph glowc_graph;                   /* the graph being compiled (opaque) */
typedef struct glowc_pass_registry glowc_pass_registry;   /* where a plugin registers its passes (opaque) */
typedef struct glowc_pass_api glowc_pass_api;

/* A pass: returns 0, or non-zero after api->error(). */
typedef int (*glowc_pass_fn)(const glowc_pass_api *api, glowc_graph *g, void *user);

struct glowc_pass_api {
  uint32_t abi_version; /* GLOWC_PASS_ABI_VERSION of the glowc running the plugin */
  uint32_t size;        /* sizeof(glowc_pass_api) in that glowc */

  /* Registration (only during glowc_pass_plugin_init). name: [A-Za-z0-9_.-]+, unique among
   * the loaded passes and glowc's own; what: one line for -print-passes. Returns 0 or -1. */
  int (*register_pass)(glowc_pass_registry *r, const char *name, const char *what, glowc_pass_fn run, void *user);

  /* Messages. error() records an error (the compile fails) and prints it, prefixed with the
   * pass and library; note() prints to standard error, prefixed the same way. */
  void (*error)(glowc_graph *g, const char *fmt, ...);
  void (*note)(glowc_graph *g, const char *fmt, ...);

  /* Nodes. node_op: the ONNX op_type ("Conv"); node_name may be "". Inputs and outputs are
   * value ids, -1 for an omitted optional one. */
  int (*node_count)(const glowc_graph *g); /* erased nodes included */
  int (*node_erased)(const glowc_graph *g, int node);
  const char *(*node_op)(const glowc_graph *g, int node);
  const char *(*node_name)(const glowc_graph *g, int node);
  int (*node_num_inputs)(const glowc_graph *g, int node);
  int (*node_input)(const glowc_graph *g, int node, int i);
  int (*node_num_outputs)(const glowc_graph *g, int node);
  int (*node_output)(const glowc_graph *g, int node, int i);

  /* Attributes of a node. attr_type: GLOWC_ATTR_*, GLOWC_ATTR_NONE if absent. The getters
   * return 0 (or the element count for arrays) and -1 if absent or of another type;
   * pointers stay valid until the attribute is changed. */
  int (*attr_count)(const glowc_graph *g, int node);
  const char *(*attr_name)(const glowc_graph *g, int node, int i);
  int (*attr_type)(const glowc_graph *g, int node, const char *name);
  int (*attr_int)(const glowc_graph *g, int node, const char *name, int64_t *v);
  int (*attr_float)(const glowc_graph *g, int node, const char *name, double *v);
  int (*attr_string)(const glowc_graph *g, int node, const char *name, const char **v);
  int (*attr_ints)(const glowc_graph *g, int node, const char *name, const int64_t **v);
  int (*attr_floats)(const glowc_graph *g, int node, const char *name, const double **v);
  /* Setters add the attribute or replace one of that name; 0 or -1. */
  int (*set_attr_int)(glowc_graph *g, int node, const char *name, int64_t v);
  int (*set_attr_float)(glowc_graph *g, int node, const char *name, double v);
  int (*set_attr_string)(glowc_graph *g, int node, const char *name, const char *v);
  int (*set_attr_ints)(glowc_graph *g, int node, const char *name, int n, const int64_t *v);
  int (*set_attr_floats)(glowc_graph *g, int node, const char *name, int n, const double *v);
  int (*remove_attr)(glowc_graph *g, int node, const char *name);

  /* Values. value_rank is -1 while a new node's outputs have no shape yet; value_dims
   * writes at most cap dims and returns the rank. value_num_uses counts the inputs of live
   * nodes that read it (a graph output is not a use: see value_is_output); value_use gives
   * the k-th such node and, through *input, which of its inputs. */
  int (*value_count)(const glowc_graph *g);
  const char *(*value_name)(const glowc_graph *g, int value);
  int (*value_dtype)(const glowc_graph *g, int value);
  int (*value_rank)(const glowc_graph *g, int value);
  int (*value_dims)(const glowc_graph *g, int value, int64_t *dims, int cap);
  int (*value_kind)(const glowc_graph *g, int value);
  int (*value_is_output)(const glowc_graph *g, int value);
  int (*value_producer)(const glowc_graph *g, int value); /* node id, -1 if none */
  int (*value_num_uses)(const glowc_graph *g, int value);
  int (*value_use)(const glowc_graph *g, int value, int k, int *input);
  /* A constant's dense row-major bytes (*bytes set); NULL if the value is not a constant. */
  const void *(*constant_data)(const glowc_graph *g, int value, size_t *bytes);

  /* Editing. constant_add copies the data (row-major, numel * element size bytes) and
   * returns the new value's id. name: unique, or NULL for a generated one. */
  int (*constant_add)(glowc_graph *g, const char *name, int dtype, int rank, const int64_t *dims, const void *data);
  /* A node of an ONNX op glowc supports, appended; its outputs are new values (their ids
   * written to outs[0..nout-1]; output_names may be NULL). Set its attributes, then call
   * node_infer for its outputs' shapes (glowc also infers them when the pass returns). */
  int (*node_add)(glowc_graph *g, const char *op, const char *name, int nin, const int *in, int nout,
                  const char *const *output_names, int *outs);
  int (*node_infer)(glowc_graph *g, int node); /* 0, or -1 with the op's own message */
  int (*node_set_input)(glowc_graph *g, int node, int i, int value);
  /* Every input of a live node reading `from` reads `to` instead. If `from` is a graph
   * output, `to` becomes that output under its name (dtype and shape must match). */
  int (*value_replace_uses)(glowc_graph *g, int from, int to);
  /* Erases a node whose outputs nothing reads and that are not graph outputs. */
  int (*node_erase)(glowc_graph *g, int node);
};

/* What a plugin defines: the version it was built for, and an init function that
 * registers its passes (0 on success). GLOWC_PASS_PLUGIN(api, registry) { ... } defines
 * both. */
#ifdef __cplusplus
#define GLOWC_PASS_EXPORT extern "C" __attribute__((visibility("default")))
#else
#define GLOWC_PASS_EXPORT extern __attribute__((visibility("default")))
#endif
#define GLOWC_PASS_PLUGIN(api, registry)                                                     \
  GLOWC_PASS_EXPORT const uint32_t glowc_pass_abi_version;                                   \
  const uint32_t glowc_pass_abi_version = GLOWC_PASS_ABI_VERSION;                            \
  GLOWC_PASS_EXPORT int glowc_pass_plugin_init(const glowc_pass_api *api, glowc_pass_registry *registry); \
  int glowc_pass_plugin_init(const glowc_pass_api *api, glowc_pass_registry *registry)

#ifdef __cplusplus
}
#endif
#endif
