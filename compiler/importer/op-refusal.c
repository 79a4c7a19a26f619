/* Why glowc refuses an ONNX op it has no definition for. Ops that need what a
 * bundle does not have (training, random numbers, shapes decided by data,
 * subgraphs, sequences, strings) say so; any other op is not implemented
 * yet. The reasons are phrased so that a reader, and the conformance
 * harness's categories, can tell these apart. */
#include <string.h>

#include "glowc.h"

typedef struct {
  const char *why;
  const char *ops[14];
} refusal;

static const refusal refusals[] = {
    {"a random-number generator: bundles are deterministic, and no seed reproduces another runtime's draws",
     {"Bernoulli", "Multinomial", "RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike"}},
    {"its output shape depends on the input values, and a bundle's shapes are fixed at compile time",
     {"NonMaxSuppression", "Unique", "StringSplit"}},
    {"control flow with subgraphs (If, Loop, Scan) is not supported", {"If", "Loop", "Scan"}},
    {"it works on sequence or optional values, which bundles do not have",
     {"ConcatFromSequence", "Optional", "OptionalGetElement", "OptionalHasElement", "SequenceAt",
      "SequenceConstruct", "SequenceEmpty", "SequenceErase", "SequenceInsert", "SequenceLength", "SequenceMap",
      "SplitToSequence"}},
    {"it works on string tensors, which bundles do not have",
     {"RegexFullMatch", "StringConcat", "StringNormalizer"}},
};

void glow_onnx_refusal_why(const char *domain, const char *op, glow_strbuf *why) {
  if (domain && !strcmp(domain, "ai.onnx.preview.training")) {
    glow_sb_printf(why, ": a training op; bundles run inference only");
    return;
  }
  for (size_t r = 0; r < sizeof refusals / sizeof refusals[0]; r++)
    for (int k = 0; k < 14 && refusals[r].ops[k]; k++)
      if (!strcmp(op, refusals[r].ops[k])) {
        glow_sb_printf(why, ": %s", refusals[r].why);
        return;
      }
  if (glow_onnx_default_domain(domain))
    glow_sb_printf(why, ": glowc does not implement it yet");
  else
    glow_sb_printf(why, ": glowc reads the default ONNX domain and a few com.microsoft quantized ops only");
}
