// A dynamic-API client: first as Glow's examples use a bundle (each tensor's offset found by
// strcmp over symbols_config.symbolTable, by Glow's names), then through glowc's runtime,
// which finds a tensor by the model's name and by Glow's.
//   dynamic-client <symbols.weights.bin>     LONG_SYMBOL (-D): the long output's legal name
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "client-checks.h"
#include "glow-runtime.h"
#include "symbols.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static int bad = 0;
#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond))                                                                                                       \
      bad++, std::printf("FAIL line %d: %s (%s)\n", __LINE__, #cond, glow_last_error());                              \
  } while (0)

// The symbol table, in order: inputs, then outputs, each named as Glow names it.
static const char *const expected[] = {"gpu_0_data", "a_b",    "a_b__1",        "a_b__2", "q__1",         "q__2",
                                       "A7up",       "gpu_0_softmax", "a_b__3", STR(LONG_SYMBOL), "A7up__1"};
static const char *const model_names[] = {"gpu_0/data", "a.b", "a_b", "a/b", "q__1", "q:_1", "7up", "gpu_0/softmax",
                                          "a-b", nullptr /* the long name */, "7up"};
static const int nexpected = sizeof expected / sizeof expected[0];

static uint8_t *aligned(uint64_t size) {
  void *p = nullptr;
  if (posix_memalign(&p, symbols_config.alignment, size + 64))
    std::abort();
  std::memset(p, 0, size + 64);
  return static_cast<uint8_t *>(p);
}

// A name to print: the long one as its head and tail.
static const char *shorter(const char *s) {
  static char buf[2][80];
  static int k;
  size_t n = std::strlen(s);
  if (n < 70)
    return s;
  k ^= 1;
  std::snprintf(buf[k], sizeof buf[k], "%.20s...%s", s, s + n - 40);
  return buf[k];
}

// As Glow's examples do it: the entry whose name is `name`, or abort.
static const SymbolTableEntry &symbol(const char *name) {
  for (uint64_t i = 0; i < symbols_config.numSymbols; i++)
    if (!std::strcmp(symbols_config.symbolTable[i].name, name))
      return symbols_config.symbolTable[i];
  std::printf("FAIL: no symbol '%s'\n", name);
  std::exit(1);
}

static void glow_style() {
  CHECK(symbols_config.numSymbols == (uint64_t)nexpected);
  for (int i = 0; i < nexpected && (uint64_t)i < symbols_config.numSymbols; i++) {
    const SymbolTableEntry &s = symbols_config.symbolTable[i];
    if (std::strcmp(s.name, expected[i]))
      bad++, std::printf("FAIL: symbol %d is '%s', not '%s'\n", i, shorter(s.name), shorter(expected[i]));
    CHECK(s.kind == 1 && s.size == (i == 8 ? 24u : 4u));
    // tensor_info keeps the model's names, in the same order.
    if (model_names[i] && std::strcmp(symbols_tensor_info[i].name, model_names[i]))
      bad++, std::printf("FAIL: tensor_info %d is '%s', not '%s'\n", i, symbols_tensor_info[i].name, model_names[i]);
  }
  uint8_t *cw = aligned(symbols_config.constantWeightVarsMemSize), *mw = aligned(symbols_config.mutableWeightVarsMemSize),
          *act = aligned(symbols_config.activationsMemSize);
  auto at = [&](const char *name) { return reinterpret_cast<float *>(GLOW_GET_ADDR(mw, symbol(name).offset)); };
  float *in[7];
  for (int k = 0; k < 7; k++)
    in[k] = at(expected[k]);
  fill_inputs(in);
  CHECK(symbols(cw, mw, act) == GLOW_SUCCESS);
  int failed = check_outputs(at("gpu_0_softmax"), at("a_b__3"), at(STR(LONG_SYMBOL)), at("A7up__1"));
  bad += failed;
  std::printf("symbol table, as Glow's examples use it: %s\n", failed ? "FAIL" : "ok");
  std::free(cw);
  std::free(mw);
  std::free(act);
}

static void runtime(const char *weights) {
  static const glow_bundle b = GLOW_BUNDLE(symbols);
  glow_weights *w = nullptr;
  glow_instance *inst = nullptr;
  if (glow_weights_load(&b, weights, &w) || glow_instance_create(&b, w, &inst)) {
    std::printf("FAIL: %s\n", glow_last_error());
    bad++;
    return;
  }
  glow_tensor_ref by_model{}, by_symbol{};
  CHECK(glow_instance_find(inst, "gpu_0/data", &by_model) == GLOW_RT_OK);
  CHECK(glow_instance_find(inst, "gpu_0_data", &by_symbol) == GLOW_RT_OK);
  CHECK(by_model.data == by_symbol.data && by_model.is_input);
  CHECK(!std::strcmp(by_symbol.name, "gpu_0/data") && !std::strcmp(by_symbol.symbol, "gpu_0_data"));
  // "a_b" is the model's name of one input and Glow's name of another: the model's name wins.
  glow_tensor_ref t{};
  CHECK(glow_instance_find(inst, "a_b", &t) == GLOW_RT_OK && !std::strcmp(t.symbol, "a_b__1"));
  CHECK(glow_instance_find(inst, "a_b__2", &t) == GLOW_RT_OK && !std::strcmp(t.name, "a/b"));
  // "7up" is an input and an output: find gives the input, by either name; A7up__1 is the output.
  CHECK(glow_instance_find(inst, "7up", &t) == GLOW_RT_OK && t.is_input && !std::strcmp(t.symbol, "A7up"));
  CHECK(glow_instance_find(inst, "A7up__1", &t) == GLOW_RT_OK && !t.is_input && !std::strcmp(t.name, "7up"));
  CHECK(glow_instance_find(inst, STR(LONG_SYMBOL), &t) == GLOW_RT_OK && !t.is_input && std::strlen(t.name) == 602);
  CHECK(glow_instance_find(inst, "a_b__9", &t) == GLOW_RT_ERR_NOT_FOUND);
  CHECK(std::strstr(glow_last_error(), "'gpu_0/data' (gpu_0_data) 'a.b' (a_b) 'a_b' (a_b__1)") != nullptr);

  // Fed by a mix of names; fetched by both.
  float vals[7][4];
  float *in[7];
  for (int k = 0; k < 7; k++)
    in[k] = vals[k];
  fill_inputs(in);
  const char *feed_names[7] = {"gpu_0_data", "a.b", "a_b", "a_b__2", "q__1", "q__2", "7up"};
  const int64_t dims[2] = {1, 4};
  for (int k = 0; k < 7; k++)
    CHECK(glow_instance_feed(inst, feed_names[k], 1, 2, dims, vals[k], sizeof vals[k]) == GLOW_RT_OK);
  CHECK(glow_instance_feed(inst, "gpu_0_softmax", 1, 2, dims, vals[0], sizeof vals[0]) == GLOW_RT_ERR_NOT_FOUND);
  CHECK(glow_instance_run(inst) == GLOW_RT_OK);
  float softmax[4], rows[24], rows2[24], neg[4], copy[4];
  CHECK(glow_instance_fetch(inst, "gpu_0/softmax", 1, softmax, sizeof softmax) == GLOW_RT_OK);
  CHECK(glow_instance_fetch(inst, "a-b", 1, rows, sizeof rows) == GLOW_RT_OK);
  CHECK(glow_instance_fetch(inst, "a_b__3", 1, rows2, sizeof rows2) == GLOW_RT_OK);
  CHECK(!std::memcmp(rows, rows2, sizeof rows));
  CHECK(glow_instance_fetch(inst, STR(LONG_SYMBOL), 1, neg, sizeof neg) == GLOW_RT_OK);
  CHECK(glow_instance_fetch(inst, "7up", 1, copy, sizeof copy) == GLOW_RT_OK); // the output, for fetch
  int failed = check_outputs(softmax, rows, neg, copy);
  bad += failed;
  std::printf("runtime, by the model's and Glow's names: %s\n", failed ? "FAIL" : "ok");
  glow_instance_free(inst);
  glow_weights_free(w);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: dynamic-client <symbols.weights.bin>\n");
    return 2;
  }
  glow_style();
  runtime(argv[1]);
  return bad != 0;
}
