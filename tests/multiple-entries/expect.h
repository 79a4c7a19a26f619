// The clients' checks: an output against numpy's values (cases.h), and the runs of both entries
// in both orders over one set of areas.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "cases.h"

// Each value of got within 1e-5 (relative, 1e-6 absolute) of want; prints what differs.
static int expect_close(const char *what, const float *got, const float *want, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (!(std::fabs(got[i] - want[i]) <= 1e-6f + 1e-5f * std::fabs(want[i]))) {
      std::printf("FAIL %s[%d]: %.9g, numpy: %.9g\n", what, i, got[i], want[i]);
      bad++;
    }
  return bad;
}

typedef int (*entry_fn)(uint8_t *, uint8_t *, uint8_t *);

// Runs both entries on one set of areas, first then second, with fresh inputs and outputs set to
// NaN, and checks both outputs after both ran: the second entry's run (it shares the activations)
// leaves the first's output as it was.
static int run_both(const char *order, entry_fn first, entry_fn second, uint8_t *constant, uint8_t *mutable_area,
                    uint8_t *activations, float *in1, float *out1, float *in2, float *out2) {
  std::memcpy(in1, kInput1, sizeof kInput1);
  std::memcpy(in2, kInput2, sizeof kInput2);
  for (size_t i = 0; i < sizeof kOutput1 / sizeof *kOutput1; i++)
    out1[i] = NAN;
  for (size_t i = 0; i < sizeof kOutput2 / sizeof *kOutput2; i++)
    out2[i] = NAN;
  std::memset(activations, 0xA5, 16); // what an earlier run may leave there
  if (first(constant, mutable_area, activations) != GLOW_SUCCESS ||
      second(constant, mutable_area, activations) != GLOW_SUCCESS) {
    std::printf("FAIL %s: an entry returned an error\n", order);
    return 1;
  }
  int bad = expect_close("output1", out1, kOutput1, sizeof kOutput1 / sizeof *kOutput1) +
            expect_close("output2", out2, kOutput2, sizeof kOutput2 / sizeof *kOutput2);
  std::printf("%s: %s\n", order, bad ? "FAIL" : "outputs as numpy's");
  return bad;
}
