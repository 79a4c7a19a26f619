/* The quantization of a bundle's input or output, for its header and <net>_tensor_info
 * (codegen/tensor-quant.c). */
#ifndef GLOW_TENSOR_QUANT_H
#define GLOW_TENSOR_QUANT_H

#include "glowc.h"

/* The scale and offset (zero point) of value `id` of an integer type: its own (qscale,
 * which the importers set on quantized graph inputs and TFLite outputs), else those its
 * producer gives it (QuantizeLinear's and the QLinear ops' constant scalar y_scale and
 * y_zero_point), looking through the ops that move quantized values unchanged (Reshape,
 * Transpose, MaxPool, ...). Real value = (q - offset) * scale.
 * @return 1 with *scale and *offset, or 0 (not quantized, or per-channel) with both 0. */
int glow_value_quant(const glow_graph *g, int id, double *scale, int64_t *offset);

#endif
