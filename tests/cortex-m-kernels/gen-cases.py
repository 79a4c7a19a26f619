#!/usr/bin/python3
"""Int8 convolution and matrix cases for the Cortex-M kernels, beside tests/quant's.

    /usr/bin/python3 tests/cortex-m-kernels/gen-cases.py <out_dir>

Written by tests/quant/gen-cases.py's functions (the expected outputs are numpy's, from the
arithmetic glowc specifies), in the same layout. bench_*: the shapes whose instructions per call
the README reports (run-kernels.py --bench). The others reach what tests/quant's cases do not
on a microcontroller: weights kept in their ONNX layout (one or two input channels per group,
uint8 weights with zero points), reduction lengths past the stack buffers (split into chunks),
matrices wider than Armv6-M's column sums' buffer (128), odd row lengths of depthwise convolutions.
"""
import importlib.util
import os
import sys

import numpy as np

spec = importlib.util.spec_from_file_location(
    "quant_cases", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "quant", "gen-cases.py"))
qc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(qc)
qc.RNG = np.random.default_rng(27)

u8, i8 = np.uint8, np.int8


def main():
    out = sys.argv[1]
    qc.qconv_case(out, "bench_conv3x3_32x32_16x16", u8, i8, u8, (1, 32, 16, 16), 32, (3, 3), pads=(1, 1, 1, 1))
    qc.qconv_case(out, "bench_dw3x3_64_25x5", i8, i8, i8, (1, 64, 25, 5), 64, (3, 3), pads=(1, 1, 1, 1), group=64)
    qc.qconv_case(out, "bench_conv1x1_64x64_16x16", i8, i8, i8, (1, 64, 16, 16), 64, (1, 1))
    qc.qmatmul_case(out, "bench_fc_256x64", i8, i8, i8, (1, 256), (256, 64), per_col=False, bias=True)
    qc.qconv_case(out, "mcu_conv_c1_5x5_u8w", u8, u8, u8, (1, 1, 14, 13), 6, (5, 5), pads=(2, 2, 2, 2),
                  wz_zero=False)
    qc.qconv_case(out, "mcu_conv_c2_s8", i8, i8, i8, (2, 2, 9, 10), 5, (3, 3), (2, 1), (1, 0, 0, 1), wz_zero=False)
    qc.qconv_case(out, "mcu_conv_group3_c1", u8, i8, u8, (1, 3, 8, 9), 6, (3, 3), pads=(1, 1, 1, 1), group=3)
    qc.qconv_case(out, "mcu_conv_k600_stride2", i8, i8, u8, (1, 67, 9, 8), 7, (3, 3), (2, 2), (1, 1, 0, 0),
                  wz_zero=False)
    qc.qconv_case(out, "mcu_conv_1x1_odd", u8, i8, i8, (1, 13, 5, 7), 11, (1, 1), wz_zero=False)
    qc.qconv_case(out, "mcu_dw_odd_rows", u8, u8, u8, (1, 3, 7, 11), 3, (3, 3), pads=(1, 1, 1, 1), group=3,
                  wz_zero=False)
    qc.qconv_case(out, "mcu_dw_3x3_s2_even", i8, i8, u8, (1, 4, 10, 12), 4, (3, 3), (2, 2), (0, 0, 1, 1), group=4)
    qc.qconv_case(out, "mcu_dw_2x2", u8, i8, u8, (1, 3, 6, 9), 3, (2, 2), group=3)
    # K split into chunks with more channels than the per-group table: Armv6-M (K > 1024, > 32 channels)
    # and MVE (K > 4096, > 128 channels)
    qc.qconv_case(out, "mcu_conv_chunks_m40", u8, i8, i8, (1, 120, 5, 4), 40, (3, 3), pads=(1, 1, 1, 1),
                  wz_zero=False)
    qc.qconv_case(out, "mcu_conv_chunks_m130", i8, i8, u8, (1, 456, 2, 3), 130, (3, 3), pads=(1, 1, 1, 1),
                  wz_zero=False)
    qc.qmatmul_case(out, "mcu_fc_wide_n200", u8, i8, u8, (1, 48), (48, 200), bz_zero=False)
    qc.qmatmul_case(out, "mcu_fc_rows_k13", i8, i8, u8, (3, 13), (13, 6), bias=True)


if __name__ == "__main__":
    main()
