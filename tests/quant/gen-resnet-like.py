#!/usr/bin/python3
"""Writes a small ResNet-shaped float model with Glow's tensor names, for Glow's quantization options.

    /usr/bin/python3 tests/quant/gen-resnet-like.py <out.onnx> [sigmoid]

gpu_0/data float[1,3,16,16] -> Conv 3x3 (bias) -> BatchNormalization -> Relu -> MaxPool 2x2 ->
residual block (Conv -> BatchNormalization -> Relu -> Conv -> BatchNormalization, + the block's
input, Relu) -> GlobalAveragePool -> Flatten -> Gemm (bias) -> Softmax -> gpu_0/softmax float[1,10],
as Glow's resnet50 example runs it; the logits are an output too, gpu_0/pred float[1,10] (the
softmax of such a wide bias says little about accuracy). One weight of the block is an outlier, 8 times the others'
largest (-calibrate-constants clips it). With 'sigmoid', a Sigmoid (which glowc does not quantize)
sits between the block and the pool. Random weights with a fixed seed: two runs write the same
bytes. The Gemm's bias spans [-6, 6] with finer detail, so that rounding it to an int8 or int16
grid over its range changes it (-quantization-precision-bias).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(11)


def he(shape):
    return (RNG.standard_normal(shape) * np.sqrt(2.0 / int(np.prod(shape[1:])))).astype(np.float32)


def weight(name, shape):
    return numpy_helper.from_array(he(shape), name)


def vector(name, values):
    return numpy_helper.from_array(np.asarray(values, np.float32), name)


def batchnorm(prefix, c):
    return [vector(prefix + "_s", RNG.uniform(0.5, 1.5, c)), vector(prefix + "_b", RNG.uniform(-0.2, 0.2, c)),
            vector(prefix + "_m", RNG.uniform(-0.1, 0.1, c)), vector(prefix + "_v", RNG.uniform(0.5, 1.5, c))]


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "sigmoid"):
        sys.exit(__doc__)
    sigmoid = len(sys.argv) == 3
    fc_b = RNG.uniform(-0.5, 0.5, 10)
    fc_b[0], fc_b[1] = -6.0, 6.0  # a wide range: its 8- and 16-bit grids are coarser than the int32 one
    conv1_w, res_w1 = he((8, 3, 3, 3)), he((8, 8, 3, 3))
    res_w1[0, 0, 1, 1] = 8 * np.abs(res_w1).max()  # an outlier: -calibrate-constants clips it
    inits = [numpy_helper.from_array(conv1_w, "conv1_w"), vector("conv1_b", RNG.uniform(-0.1, 0.1, 8)),
             *batchnorm("bn1", 8), numpy_helper.from_array(res_w1, "res_w1"), *batchnorm("res_bn1", 8),
             weight("res_w2", (8, 8, 3, 3)), *batchnorm("res_bn2", 8),
             weight("fc_w", (10, 8)), vector("fc_b", fc_b)]
    node = helper.make_node

    def bn(x, prefix, y):
        return node("BatchNormalization", [x, prefix + "_s", prefix + "_b", prefix + "_m", prefix + "_v"], [y],
                    name=prefix)

    nodes = [
        node("Conv", ["gpu_0/data", "conv1_w", "conv1_b"], ["gpu_0/conv1"], pads=[1, 1, 1, 1], name="conv1"),
        bn("gpu_0/conv1", "bn1", "gpu_0/bn1"),
        node("Relu", ["gpu_0/bn1"], ["gpu_0/relu1"], name="relu1"),
        node("MaxPool", ["gpu_0/relu1"], ["gpu_0/pool1"], kernel_shape=[2, 2], strides=[2, 2], name="pool1"),
        node("Conv", ["gpu_0/pool1", "res_w1"], ["gpu_0/res_conv1"], pads=[1, 1, 1, 1], name="res_conv1"),
        bn("gpu_0/res_conv1", "res_bn1", "gpu_0/res_bn1"),
        node("Relu", ["gpu_0/res_bn1"], ["gpu_0/res_relu1"], name="res_relu1"),
        node("Conv", ["gpu_0/res_relu1", "res_w2"], ["gpu_0/res_conv2"], pads=[1, 1, 1, 1], name="res_conv2"),
        bn("gpu_0/res_conv2", "res_bn2", "gpu_0/res_bn2"),
        node("Add", ["gpu_0/res_bn2", "gpu_0/pool1"], ["gpu_0/res_sum"], name="res_sum"),
        node("Relu", ["gpu_0/res_sum"], ["gpu_0/res_relu2"], name="res_relu2"),
    ]
    block_out = "gpu_0/res_relu2"
    if sigmoid:
        nodes.append(node("Sigmoid", [block_out], ["gpu_0/gate"], name="gate"))
        block_out = "gpu_0/gate"
    nodes += [
        node("GlobalAveragePool", [block_out], ["gpu_0/pool5"], name="pool5"),
        node("Flatten", ["gpu_0/pool5"], ["gpu_0/flat"], name="flatten"),
        node("Gemm", ["gpu_0/flat", "fc_w", "fc_b"], ["gpu_0/pred"], transB=1, name="pred"),
        node("Softmax", ["gpu_0/pred"], ["gpu_0/softmax"], axis=1, name="softmax"),
    ]
    graph = helper.make_graph(nodes, "resnet-like",
                              [helper.make_tensor_value_info("gpu_0/data", TensorProto.FLOAT, [1, 3, 16, 16])],
                              [helper.make_tensor_value_info("gpu_0/softmax", TensorProto.FLOAT, [1, 10]),
                               helper.make_tensor_value_info("gpu_0/pred", TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, producer_name="gen-resnet-like", opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    with open(sys.argv[1], "wb") as f:
        f.write(model.SerializeToString())


if __name__ == "__main__":
    main()
