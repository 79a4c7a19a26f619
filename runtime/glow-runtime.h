/* glowc runtime: a small C library for programs that use bundles.
 *
 * A bundle compiled with -bundle-api=dynamic exports its entry function, a
 * `<net>_config` (memory sizes and symbol table) and `<net>_tensor_info`
 * (dtype, shape and, if quantized, scale and offset of each input and
 * output). The runtime loads the weights
 * file into an aligned constant area, allocates the mutable and activation
 * areas of each instance, finds inputs and outputs by name, and runs:
 *
 *   #include "net.h"
 *   #include "glow-runtime.h"
 *
 *   static const glow_bundle net_bundle = GLOW_BUNDLE(net);
 *   glow_weights *w;
 *   glow_instance *inst;
 *   glow_tensor_ref in, out;
 *   if (glow_weights_load(&net_bundle, "net.weights.bin", &w) ||
 *       glow_instance_create(&net_bundle, w, &inst) ||
 *       glow_instance_find(inst, "input", &in) || glow_instance_find(inst, "output", &out)) {
 *     fprintf(stderr, "%s\n", glow_last_error());
 *     return 1;
 *   }
 *   memcpy(in.data, image, in.bytes);
 *   if (glow_instance_run(inst)) ...
 *   use((const float *)out.data);
 *   glow_instance_free(inst);
 *   glow_weights_free(w);
 *
 * Names: each input and output has two, the model's ("gpu_0/data", in <net>_tensor_info) and
 * its symbol, the name Glow gives it in the symbol table and the static API's macros
 * ("gpu_0_data": every character outside [A-Za-z0-9_] made '_', an 'A' before a leading
 * digit, a name over 500 bytes cut with a hash, __1, __2, ... after a name already taken).
 * The functions that take a name accept either: the model's names are tried first, then
 * the symbols.
 *
 * Several instances may share one glow_weights (the constant area is never
 * written), so threads can run the same network on their own instance: load the
 * weights once, then create one instance (an executor) per thread; each holds
 * only its mutable and activation areas. Thread safety: functions on different
 * instances may run at the same time on different threads, sharing weights and
 * bundles; one instance is used by one thread at a time; glow_weights_free only
 * after its instances are freed. glow_last_error() is per thread. (Tested with 8
 * threads x 1000 runs under ThreadSanitizer, tests/integration/executors.c.)
 *
 * Every function returns GLOW_RT_OK (0) or a negative glow_rt_status, and never
 * aborts on bad input; glow_last_error() then says what went wrong (per thread).
 * Free functions accept NULL. */
#ifndef GLOW_RUNTIME_H
#define GLOW_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: glow_tensor_ref.symbol added (a program built against 1 must be rebuilt), names looked up
 * by the model's name or the symbol. 3: struct GlowTensorInfo ends with a quantized tensor's
 * scale and offset (its size grew: programs and this library built against 2 must be rebuilt;
 * their sources need no change). */
#define GLOW_RUNTIME_VERSION 3

/* The structures a bundle header defines; the same definitions, guarded the same way. */
#ifndef _GLOW_BUNDLE_COMMON_DEFS
#define _GLOW_BUNDLE_COMMON_DEFS
#define GLOW_SUCCESS 0
#define GLOW_MEM_ALIGN(size) __attribute__((aligned(size)))
#define GLOW_GET_ADDR(mutableBaseAddr, placeholderOff) (((uint8_t *)(mutableBaseAddr)) + placeholderOff)
struct SymbolTableEntry {
  const char *name;
  uint64_t offset;
  uint64_t size;
  char kind;
};
struct BundleConfig {
  uint64_t constantWeightVarsMemSize;
  uint64_t mutableWeightVarsMemSize;
  uint64_t activationsMemSize;
  uint64_t alignment;
  uint64_t numSymbols;
  const struct SymbolTableEntry *symbolTable;
};
struct GlowTensorInfo {
  const char *name; /* the model's name (symbolTable[i].name is Glow's legalized one) */
  uint64_t dtype;
  uint64_t rank;
  uint64_t role; /* 1: input, 2: output */
  uint64_t dims[8];
  double scale;   /* quantized: real value = (q - offset) * scale; 0: not quantized */
  int64_t offset; /* the zero point */
};
typedef struct SymbolTableEntry SymbolTableEntry;
typedef struct BundleConfig BundleConfig;
#endif

/* Status codes; pinned, never renumbered. */
typedef enum {
  GLOW_RT_OK = 0,
  GLOW_RT_ERR_ARG = -1,       /* a NULL or otherwise invalid argument */
  GLOW_RT_ERR_IO = -2,        /* a file could not be opened or read */
  GLOW_RT_ERR_SIZE = -3,      /* a weights file whose size does not match the bundle */
  GLOW_RT_ERR_NOMEM = -4,     /* out of memory */
  GLOW_RT_ERR_NOT_FOUND = -5, /* no input or output of that name (or no such runfile) */
  GLOW_RT_ERR_BUNDLE = -6,    /* the bundle's entry function returned an error */
  GLOW_RT_ERR_FORMAT = -7,    /* packed weights that are truncated, corrupt or not glowc's (or of another version) */
  GLOW_RT_ERR_CHECKSUM = -8,  /* packed weights whose unpacked bytes fail their checksum */
  GLOW_RT_ERR_DEVICE = -9,    /* a GPU (CUDA) driver or device call failed, or there is no usable one */
  GLOW_RT_ERR_TYPE = -10,     /* data of another dtype or shape than the input or output's */
} glow_rt_status;

/* One compiled network: what GLOW_BUNDLE(net) gathers from "net.h". */
typedef struct glow_bundle {
  const char *name;
  const struct BundleConfig *config;
  const struct GlowTensorInfo *tensors; /* in symbol-table order */
  int (*entry)(uint8_t *constantWeight, uint8_t *mutableWeight, uint8_t *activations);
} glow_bundle;
#define GLOW_BUNDLE(net) {#net, &net##_config, net##_tensor_info, net}

/* An input or output of an instance. */
typedef struct glow_tensor_ref {
  const char *name;     /* the model's name */
  int dtype;            /* ONNX TensorProto.DataType number: 1 float, 7 int64, ... */
  int rank;
  const uint64_t *dims; /* rank entries */
  uint64_t numel;       /* element count */
  size_t bytes;
  void *data;           /* inside the instance's mutable area */
  int is_input;
  const char *symbol;   /* its name in the symbol table (Glow's legalized name) */
} glow_tensor_ref;

typedef struct glow_weights glow_weights;
typedef struct glow_instance glow_instance;

/* Loads a .weights.bin file into a new aligned constant area.
 * @return GLOW_RT_OK; GLOW_RT_ERR_IO if the file cannot be read; GLOW_RT_ERR_SIZE if its size is
 *         not the bundle's constantWeightVarsMemSize; GLOW_RT_ERR_NOMEM. */
int glow_weights_load(const glow_bundle *b, const char *path, glow_weights **out);

/* Uses caller-owned constant weights in place (e.g. from flash or an embedded array); no copy.
 * @return GLOW_RT_OK; GLOW_RT_ERR_SIZE if size differs from the bundle's; GLOW_RT_ERR_ARG if the
 *         data is not aligned to the bundle's alignment. */
int glow_weights_wrap(const glow_bundle *b, const void *data, size_t size, glow_weights **out);

/* The constant area the weights hold (what a bundle's entry takes as constantWeight). */
const void *glow_weights_data(const glow_weights *w);

/* ---- Packed weights (-weights=zst): in the library glowc_runtime_zst (CMake glowc::runtime_zst,
 * Bazel @glowc//runtime:glowc_runtime_zst), which links libzstd and libxxhash. ---- */

/* Loads a .weights.zst file: the header and tables checked against the bundle, the zstd frame
 * streamed straight into a new aligned constant area (under 3 MiB of extra memory, whatever
 * the size of the weights), then the XXH64 checksum of the result compared.
 * @return GLOW_RT_OK; GLOW_RT_ERR_IO if the file cannot be read; GLOW_RT_ERR_SIZE if it packs
 *         weights of another size or alignment than the bundle's; GLOW_RT_ERR_FORMAT if it is
 *         truncated, corrupt, not packed weights, of another format version, or unpacks to more
 *         bytes than it declares; GLOW_RT_ERR_CHECKSUM; GLOW_RT_ERR_NOMEM. */
int glow_weights_load_zst(const glow_bundle *b, const char *path, glow_weights **out);

/* The same from packed bytes in memory, e.g. the <net>_constant_weights_zst that -weights=embedded,zst
 * puts in the object (NET_CONSTANT_WEIGHTS_ZST_SIZE bytes): unpacked into RAM. Same statuses. */
int glow_weights_unpack(const glow_bundle *b, const void *packed, size_t size, glow_weights **out);

void glow_weights_free(glow_weights *w);

/* Allocates an instance's mutable and activation areas (zeroed).
 * @return GLOW_RT_OK; GLOW_RT_ERR_ARG if w was loaded for another bundle; GLOW_RT_ERR_NOMEM. */
int glow_instance_create(const glow_bundle *b, const glow_weights *w, glow_instance **out);

void glow_instance_free(glow_instance *inst);

/* Looks an input or output up by its name in the model or its symbol (see Names above).
 * @return GLOW_RT_OK; GLOW_RT_ERR_NOT_FOUND (the message lists the names there are, each
 *         symbol in parentheses after the model's name where they differ). */
int glow_instance_find(glow_instance *inst, const char *name, glow_tensor_ref *t);

/* The i-th symbol (inputs first, then outputs), for programs that iterate.
 * @return GLOW_RT_OK; GLOW_RT_ERR_NOT_FOUND if i is out of range. */
int glow_instance_tensor(glow_instance *inst, int i, glow_tensor_ref *t);
int glow_instance_tensor_count(const glow_instance *inst);

/* Copies data into input `name` (the model's name or the symbol) after checking it is that
 * input's dtype (ONNX number) and shape (rank dims), and `bytes` its size: what a server
 * feeding requests wants checked.
 * @return GLOW_RT_OK; GLOW_RT_ERR_NOT_FOUND (no input of that name: the message lists them);
 *         GLOW_RT_ERR_TYPE (the message gives both types and shapes). */
int glow_instance_feed(glow_instance *inst, const char *name, int dtype, int rank, const int64_t *dims,
                       const void *data, size_t bytes);

/* Copies output `name` (the model's name or the symbol) into data (bytes: its capacity) after
 * checking the dtype.
 * @return GLOW_RT_OK; GLOW_RT_ERR_NOT_FOUND (no output of that name); GLOW_RT_ERR_TYPE
 *         (another dtype, or bytes smaller than the output). */
int glow_instance_fetch(glow_instance *inst, const char *name, int dtype, void *data, size_t bytes);

/* Runs the network on the instance's current inputs.
 * @return GLOW_RT_OK; GLOW_RT_ERR_BUNDLE with the entry's code in the message. */
int glow_instance_run(glow_instance *inst);

/* A description of the last error on this thread ("" if none). */
const char *glow_last_error(void);

/* ---- Bazel's runfiles ----
 * A program built by Bazel that depends on a glow_bundle finds the bundle's weights among its
 * runfiles: the rule defines GLOW_RUNFILE_<net>_weights_<ext> (bin, txt, zst: one for each
 * weights file it writes) as the file's runfiles path, "<workspace>/<package>/<target>.bundle/
 * <net>.weights.<ext>", and glow_runfile turns that into a path to open:
 *
 *   #ifdef GLOW_RUNFILE_net_weights_bin
 *   char path[4096];
 *   if (argc < 2 && glow_runfile(GLOW_RUNFILE_net_weights_bin, argv[0], path, sizeof path)) ...
 *   #endif
 *
 * It looks, in this order, in the manifest $RUNFILES_MANIFEST_FILE names ("<runfiles path>
 * <real path>" lines), the folders $RUNFILES_DIR and $TEST_SRCDIR name (`bazel run` and
 * `bazel test` set them), then beside argv0: <argv0>.runfiles_manifest,
 * <argv0>.runfiles/MANIFEST and the folder <argv0>.runfiles (a program started from bazel-bin).
 * @return GLOW_RT_OK with the path in out (cap bytes); GLOW_RT_ERR_NOT_FOUND (the message says
 *         where it looked); GLOW_RT_ERR_ARG (NULL arguments, or a path longer than cap). */
int glow_runfile(const char *rlocation, const char *argv0, char *out, size_t cap);

/* ---- Threads (runtime/thread-pool.c, the glowc::runtime_threads library) ----
 * Bundles compiled with -num-threads=N split their convolution, matrix-product
 * and pooling steps into N parts (2N or 4N for large steps) and run them through
 * glow_parallel_for, which this library defines (pthreads): each thread, the
 * calling one and workers, takes the parts of its own run, then those left in
 * the others'. Without the library linked, bundles run every part on the
 * calling thread (the reference is weak). Outputs are the same bits either way.
 *
 * glow_threads_set(n) caps the threads a step uses (the calling thread
 * included): 1 runs steps whole on the calling thread; 0 (the default) caps
 * at the online CPUs. @return GLOW_RT_OK, or GLOW_RT_ERR_ARG for n outside
 * 0..256. glow_threads_get() says the cap in force. One run at a time uses
 * the pool; a run that starts while another holds it runs its steps alone. */
int glow_threads_set(int n);
int glow_threads_get(void);
void glow_parallel_for(void (*step)(void *ctx, int32_t part, int32_t nparts), void *ctx, int32_t nparts);

/* ---- GPU bundles (-target=nvptx64-nvidia-cuda): in the library glowc_runtime_cuda (CMake
 * glowc::runtime_cuda, Bazel @glowc//runtime:glowc_runtime_cuda), which also defines the
 * CUDA driver calls that CUDA bundles make, loading libcuda.so.1 (the NVIDIA driver) at
 * their first use: programs need no CUDA toolkit to build, and start without a driver. ----
 * A CUDA bundle's entry takes device pointers and runs on the CUDA context current on the
 * calling thread. This instance does the rest: it copies the weights and allocates the
 * areas in the memory of CUDA device `device` (0: the first), using the device's primary
 * context. glow_instance_find and glow_instance_tensor give the inputs and outputs in host
 * memory, as for a CPU bundle; glow_instance_run copies the inputs to the device, runs the
 * steps on the GPU and copies the outputs back, and glow_instance_free releases the device
 * memory. The weights may be freed once the instance exists (it holds its own copy).
 * @return GLOW_RT_OK; GLOW_RT_ERR_DEVICE when there is no usable CUDA driver or device,
 *         or a driver call fails (the message says which: libcuda.so.1 cannot be loaded,
 *         or is the toolkit's stub; no GPU; the call and its CUDA error);
 *         GLOW_RT_ERR_ARG as glow_instance_create; GLOW_RT_ERR_NOMEM. The run's statuses
 *         are GLOW_RT_OK, GLOW_RT_ERR_DEVICE and GLOW_RT_ERR_BUNDLE (the entry's CUresult). */
int glow_instance_create_cuda(const glow_bundle *b, const glow_weights *w, int device, glow_instance **out);

/* The fixed name of a status code. */
const char *glow_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif
