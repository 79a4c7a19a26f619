/* targets/arm-probes.h */
#include "arm-probes.h"

const char glow_arm_probe_dsp[] = "define i32 @probe(i16 %a, i16 %b, i32 %c) {\n"
                                  "  %x = sext i16 %a to i32\n"
                                  "  %y = sext i16 %b to i32\n"
                                  "  %m = mul nsw i32 %x, %y\n"
                                  "  %r = add i32 %m, %c\n"
                                  "  ret i32 %r\n"
                                  "}\n";

const char glow_arm_probe_mve[] = "define <16 x i8> @probe(<16 x i8> %a, <16 x i8> %b) {\n"
                                  "  %r = add <16 x i8> %a, %b\n"
                                  "  ret <16 x i8> %r\n"
                                  "}\n";

const char glow_arm_probe_fpu[] = "define float @probe(float %a, float %b) {\n"
                                  "  %r = fadd float %a, %b\n"
                                  "  ret float %r\n"
                                  "}\n";
