/* TFLite's QUANTIZE and DEQUANTIZE, and the int8 operators' importers. */
#include "importer/tflite.h"

const glow_tfl_op_info glow_tfl_ops_quant[] = {
    {.code = -1},
};

const glow_tfl_op_info glow_tfl_ops_int8[] = {
    {.code = -1},
};
