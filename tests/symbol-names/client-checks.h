// What both clients put in and expect out of symbols.onnx (make-model.py), given the
// address of each input and output; the names they reach them by are Glow's, written by hand.
#ifndef SYMBOLS_CLIENT_CHECKS_H
#define SYMBOLS_CLIENT_CHECKS_H

#include <cmath>
#include <cstdio>

// The inputs in model order: gpu_0/data, a.b, a_b, a/b, q__1, q:_1, 7up. Input k gets
// 10k + j + 1 at element j (gpu_0/data a tenth of that, for the softmax).
static inline void fill_inputs(float *const in[7]) {
  for (int k = 0; k < 7; k++)
    for (int j = 0; j < 4; j++)
      in[k][j] = k == 0 ? 0.1f * (float)(j + 1) : (float)(10 * k + j + 1);
}

static inline int close_to(float got, double want) { return std::fabs(got - want) <= 1e-5 * (1 + std::fabs(want)); }

// softmax: gpu_0/softmax; rows: a-b (the concat of inputs 1..6); neg: the long name's
// output (NULL where the model has none); copy: the output 7up. Returns the failures.
static inline int check_outputs(const float *softmax, const float *rows, const float *neg, const float *copy) {
  int bad = 0;
  double sum = 0;
  for (int j = 0; j < 4; j++)
    sum += std::exp(0.1 * (j + 1));
  for (int j = 0; j < 4; j++) {
    if (!close_to(softmax[j], std::exp(0.1 * (j + 1)) / sum))
      bad++, std::printf("FAIL: gpu_0_softmax[%d] = %g\n", j, softmax[j]);
    if (neg && !close_to(neg[j], -0.1 * (j + 1)))
      bad++, std::printf("FAIL: the long name's output[%d] = %g\n", j, neg[j]);
    if (copy[j] != (float)(60 + j + 1))
      bad++, std::printf("FAIL: A7up__1[%d] = %g, not input 7up's %d\n", j, copy[j], 60 + j + 1);
  }
  for (int r = 0; r < 6; r++)
    for (int j = 0; j < 4; j++)
      if (rows[4 * r + j] != (float)(10 * (r + 1) + j + 1))
        bad++, std::printf("FAIL: a_b__3[%d][%d] = %g, not input %d's value\n", r, j, rows[4 * r + j], r + 1);
  return bad;
}

#endif
