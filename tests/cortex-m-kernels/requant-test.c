/* The Cortex-M kernels' requantization (targets/common/kernels/qmcu.h:
 * qmcu_rq_of, qmcu_rq_put) against kernels/quant.h's glow_q_saturate, which
 * it must equal byte for byte: every sum in [-2^17, 2^17] and 2^16 random
 * ones (the int32 extremes included) for multipliers that make ties, tiny,
 * huge, subnormal, infinite and NaN products, each output zero point and
 * signedness. Built for the host (the plain clamp) and, where an Arm Linux
 * gcc and qemu-arm are there, for Armv7 with DSP (QSUB and USAT). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
const int glow_target_arm_dsp = 1; /* codegen's constant in a bundle */
#endif

#include "kernels/qmcu.h"

static uint32_t rng = 12345;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static float from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

int main(void) {
  float ms[] = {0.5f, 0.25f, 1.5f, 2.5f, 1.0f, 1.0f / 3, 0.0073f, 1e-7f, 3e-3f, 0.02f, 1e7f, 3.4e38f,
                from_bits(0x00800000), from_bits(0x00000123), 0.0f, -0.5f, from_bits(0x7f800000),
                from_bits(0x7fc00000), from_bits(0xff800000)};
  long checked = 0, bad = 0;
  for (unsigned mi = 0; mi < sizeof ms / sizeof *ms; mi++)
    for (int sgn = 0; sgn < 2; sgn++)
      for (int zi = 0; zi < 5; zi++) {
        int32_t zp = (sgn ? -128 : 0) + (int32_t[]){0, 1, 77, 128, 255}[zi];
        qmcu_rq r = qmcu_rq_of(ms[mi], zp, sgn);
        for (int64_t i = -(1 << 17); i <= (1 << 17) + (1 << 16); i++) {
          int32_t acc = i <= 1 << 17 ? (int32_t)i : i == (1 << 17) + 1 ? INT32_MIN
                                                    : i == (1 << 17) + 2 ? INT32_MAX : (int32_t)next();
          uint8_t want = glow_q_saturate((float)acc * ms[mi], zp, sgn), got = qmcu_rq_put(&r, acc);
          checked++;
          if (got != want && bad++ < 10)
            printf("m %a zp %d %s acc %d: %u, want %u\n", (double)ms[mi], zp, sgn ? "int8" : "uint8", acc, got, want);
        }
      }
  printf("%ld sums requantized, %ld differ\n", checked, bad);
  return bad != 0;
}
