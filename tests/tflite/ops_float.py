"""The float32 operator tests: one small model per case, grouped by operator family (GROUPS:
group -> function returning its cases). Arm NN is the reference; where Arm NN 22's TfLite parser
lacks an operator or an option, or gets one wrong (armnn_lacks says which), the case carries a
numpy reference written from TFLite's operator definition (npref.py). The npref functions those
references and the int8 tests' calibration use are checked against Arm NN where it has them."""
import numpy as np

import npref
from cases import C, In, Out, op_case, rng

F32, I32 = np.float32, np.int32


def normal(r, *shape, scale=1.0):
    return (scale * r.standard_normal(shape)).astype(F32)


def uniform(r, lo, hi, *shape):
    return r.uniform(lo, hi, shape).astype(F32)


def signs(r, *shape):
    return r.choice(np.array([-1, 1], F32), shape)


def conv():
    r = rng("conv")
    cases = []
    for name, shape, k, o, stride, pad, act, dil in [
            ("same_relu", (1, 8, 8, 3), 3, 4, 1, "SAME", "RELU", 1),
            ("valid_relu6_stride2", (1, 9, 9, 4), 3, 5, 2, "VALID", "RELU6", 1),
            ("same_stride2_odd_tanh", (2, 9, 7, 3), 5, 4, 2, "SAME", "TANH", 1),
            ("same_dilation2", (1, 10, 10, 2), 3, 3, 1, "SAME", "NONE", 2),
            ("valid_1x1", (1, 5, 5, 8), 1, 6, 1, "VALID", "NONE", 1)]:
        n, h, w, c = shape
        if pad == "SAME":
            oh, ow = -(-h // stride), -(-w // stride)
        else:
            oh, ow = (h - (k - 1) * dil - 1) // stride + 1, (w - (k - 1) * dil - 1) // stride + 1
        cases.append(op_case(f"conv.{name}", "CONV_2D",
                             [In(normal(r, *shape)), normal(r, o, k, k, c, scale=0.5), normal(r, o)],
                             Out((n, oh, ow, o)), numpy=lambda x, w, b, s=stride, p=pad, a=act, d=dil:
                             npref.conv2d(x, w, b, (s, s), p, a, (d, d)), padding=pad, stride_w=stride,
                             stride_h=stride, fused_activation_function=act, dilation_w_factor=dil,
                             dilation_h_factor=dil))
    cases += [
        op_case("conv.same_relu_n1_to_1", "CONV_2D", [In(normal(r, 1, 7, 6, 3)), normal(r, 4, 3, 3, 3), normal(r, 4)],
                Out((1, 7, 6, 4)), numpy=lambda x, w, b: npref.conv2d(x, w, b, act="RELU_N1_TO_1"),
                armnn_lacks="a fused RELU_N1_TO_1", padding="SAME", stride_w=1, stride_h=1,
                fused_activation_function="RELU_N1_TO_1"),
        op_case("conv.no_bias", "CONV_2D", [In(normal(r, 1, 6, 6, 3)), normal(r, 2, 3, 3, 3), None], Out((1, 6, 6, 2)),
                numpy=lambda x, w, b: npref.conv2d(x, w, None), armnn_lacks="an omitted bias", padding="SAME",
                stride_w=1, stride_h=1),
    ]
    return cases


def depthwise():
    r = rng("depthwise")
    return [
        op_case("depthwise.same_relu6", "DEPTHWISE_CONV_2D",
                [In(normal(r, 1, 8, 8, 4)), normal(r, 1, 3, 3, 4), normal(r, 4)], Out((1, 8, 8, 4)),
                numpy=lambda x, w, b: npref.depthwise(x, w, b, act="RELU6"), padding="SAME", stride_w=1,
                stride_h=1, depth_multiplier=1, fused_activation_function="RELU6"),
        op_case("depthwise.multiplier2_valid_stride2", "DEPTHWISE_CONV_2D",
                [In(normal(r, 1, 9, 9, 3)), normal(r, 1, 3, 3, 6), normal(r, 6)], Out((1, 4, 4, 6)),
                numpy=lambda x, w, b: npref.depthwise(x, w, b, (2, 2), "VALID"), padding="VALID", stride_w=2,
                stride_h=2, depth_multiplier=2),
        op_case("depthwise.same_stride2_relu", "DEPTHWISE_CONV_2D",
                [In(normal(r, 2, 7, 9, 5)), normal(r, 1, 5, 3, 5), normal(r, 5)], Out((2, 4, 5, 5)),
                numpy=lambda x, w, b: npref.depthwise(x, w, b, (2, 2), "SAME", "RELU"), padding="SAME", stride_w=2,
                stride_h=2, depth_multiplier=1, fused_activation_function="RELU"),
        op_case("depthwise.dilation2", "DEPTHWISE_CONV_2D",
                [In(normal(r, 1, 9, 9, 2)), normal(r, 1, 3, 3, 2), normal(r, 2)], Out((1, 9, 9, 2)),
                numpy=lambda x, w, b: npref.depthwise(x, w, b, dilation=(2, 2)), padding="SAME", stride_w=1,
                stride_h=1, depth_multiplier=1, dilation_w_factor=2, dilation_h_factor=2),
    ]


def transpose_conv():
    r = rng("transpose_conv")
    return [
        op_case("transpose_conv.same_stride2", "TRANSPOSE_CONV",
                [C([1, 8, 8, 2], I32), normal(r, 2, 3, 3, 3), In(normal(r, 1, 4, 4, 3))], Out((1, 8, 8, 2)),
                numpy=lambda s, w, x: npref.transpose_conv(x, w, None, s, (2, 2), "SAME"), padding="SAME",
                stride_w=2, stride_h=2),
        op_case("transpose_conv.valid_stride2", "TRANSPOSE_CONV",
                [C([1, 9, 9, 4], I32), normal(r, 4, 3, 3, 2), In(normal(r, 1, 4, 4, 2))], Out((1, 9, 9, 4)),
                numpy=lambda s, w, x: npref.transpose_conv(x, w, None, s, (2, 2), "VALID"), padding="VALID",
                stride_w=2, stride_h=2),
        op_case("transpose_conv.same_stride1_bias", "TRANSPOSE_CONV",
                [C([1, 5, 6, 3], I32), normal(r, 3, 3, 3, 2), In(normal(r, 1, 5, 6, 2)), normal(r, 3)],
                Out((1, 5, 6, 3)), numpy=lambda s, w, x, b: npref.transpose_conv(x, w, b, s, (1, 1), "SAME"),
                armnn_lacks="TRANSPOSE_CONV's bias input", padding="SAME", stride_w=1, stride_h=1),
        op_case("transpose_conv.same_stride2_odd", "TRANSPOSE_CONV",
                [C([1, 7, 9, 2], I32), normal(r, 2, 3, 3, 3), In(normal(r, 1, 4, 5, 3))], Out((1, 7, 9, 2)),
                numpy=lambda s, w, x: npref.transpose_conv(x, w, None, s, (2, 2), "SAME"),
                armnn_lacks="TRANSPOSE_CONV's SAME padding of an output that is not a multiple of the stride "
                "(it pads elsewhere)", padding="SAME", stride_w=2, stride_h=2),
    ]


def fully_connected():
    r = rng("fully_connected")
    return [
        op_case("fully_connected.2d_relu", "FULLY_CONNECTED", [In(normal(r, 3, 16)), normal(r, 8, 16), normal(r, 8)],
                Out((3, 8)), numpy=lambda x, w, b: npref.fully_connected(x, w, b, "RELU"),
                fused_activation_function="RELU"),
        op_case("fully_connected.4d_input", "FULLY_CONNECTED",
                [In(normal(r, 1, 2, 2, 4)), normal(r, 10, 16), normal(r, 10)], Out((1, 10)),
                numpy=npref.fully_connected),
        op_case("fully_connected.keep_num_dims", "FULLY_CONNECTED",
                [In(normal(r, 2, 3, 12)), normal(r, 5, 12), normal(r, 5)], Out((2, 3, 5)),
                numpy=lambda x, w, b: npref.fully_connected(x, w, b, keep_num_dims=True),
                armnn_lacks="keep_num_dims (it flattens the output)", keep_num_dims=True),
        op_case("fully_connected.no_bias_relu6", "FULLY_CONNECTED", [In(normal(r, 2, 7)), normal(r, 4, 7), None],
                Out((2, 4)), numpy=lambda x, w, b: npref.fully_connected(x, w, None, "RELU6"),
                armnn_lacks="an omitted bias", fused_activation_function="RELU6"),
    ]


def pool():
    r = rng("pool")
    cases = []
    for kind in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
        short = "avg" if kind.startswith("AVERAGE") else "max"
        ref = lambda k, st, pad, act="NONE", short=short: lambda x: npref.pool(x, short.upper(), k, st, pad, act)
        cases += [
            op_case(f"pool.{short}_same_3x3_stride2", kind, [In(normal(r, 1, 9, 9, 3))], Out((1, 5, 5, 3)),
                    numpy=ref((3, 3), (2, 2), "SAME"), padding="SAME", stride_w=2, stride_h=2, filter_width=3,
                    filter_height=3),
            op_case(f"pool.{short}_valid_2x2_relu6", kind, [In(normal(r, 2, 8, 6, 4, scale=4))], Out((2, 4, 3, 4)),
                    numpy=ref((2, 2), (2, 2), "VALID", "RELU6"), padding="VALID", stride_w=2, stride_h=2,
                    filter_width=2, filter_height=2, fused_activation_function="RELU6"),
            op_case(f"pool.{short}_same_3x2_stride1", kind, [In(normal(r, 1, 6, 7, 2))], Out((1, 6, 7, 2)),
                    numpy=ref((3, 2), (1, 1), "SAME"), padding="SAME", stride_w=1, stride_h=1, filter_width=2,
                    filter_height=3),
        ]
    return cases


def mean():
    r = rng("mean")
    return [
        op_case("mean.hw_keep_dims", "MEAN", [In(normal(r, 2, 5, 6, 4)), C([1, 2], I32)], Out((2, 1, 1, 4)),
                keep_dims=True),
        op_case("mean.hw", "MEAN", [In(normal(r, 1, 7, 7, 8)), C([1, 2], I32)], Out((1, 8)),
                numpy=lambda x, a: np.mean(x.astype(np.float64), axis=(1, 2)), keep_dims=False),
        op_case("mean.last_axis", "MEAN", [In(normal(r, 3, 4, 5)), C([2], I32)], Out((3, 4)), keep_dims=False),
        op_case("mean.negative_axis", "MEAN", [In(normal(r, 3, 4, 5)), C([-2], I32)], Out((3, 5)),
                numpy=lambda x, a: np.mean(x.astype(np.float64), axis=-2),
                armnn_lacks="negative MEAN axes (it crashes)", keep_dims=False),
        op_case("mean.batch_channels", "MEAN", [In(normal(r, 2, 3, 4, 5)), C([0, 3], I32)], Out((1, 3, 4, 1)),
                keep_dims=True),
    ]


def binary():
    r = rng("binary")
    a4 = lambda: In(normal(r, 1, 4, 4, 3))
    return [
        op_case("binary.add_relu", "ADD", [a4(), a4()], Out((1, 4, 4, 3)), fused_activation_function="RELU"),
        op_case("binary.add_broadcast_channel", "ADD", [a4(), normal(r, 3)], Out((1, 4, 4, 3))),
        op_case("binary.sub_broadcast_rows", "SUB", [a4(), In(normal(r, 1, 1, 4, 3))], Out((1, 4, 4, 3)),
                fused_activation_function="RELU6"),
        op_case("binary.mul_broadcast_3d", "MUL", [In(normal(r, 2, 3, 4)), In(normal(r, 3, 1))], Out((2, 3, 4))),
        op_case("binary.mul_scalar", "MUL", [a4(), C(np.float32(0.5))], Out((1, 4, 4, 3))),
        op_case("binary.div", "DIV", [a4(), In(uniform(r, 0.5, 2, 1, 4, 4, 3) * signs(r, 1, 4, 4, 3))],
                Out((1, 4, 4, 3))),
        op_case("binary.div_broadcast", "DIV", [In(normal(r, 2, 5)), uniform(r, 1, 3, 5)], Out((2, 5))),
        op_case("binary.maximum_broadcast", "MAXIMUM", [a4(), In(normal(r, 4, 1))], Out((1, 4, 4, 3))),
        op_case("binary.minimum", "MINIMUM", [a4(), a4()], Out((1, 4, 4, 3))),
        op_case("binary.squared_difference", "SQUARED_DIFFERENCE", [In(normal(r, 2, 6)), In(normal(r, 6))],
                Out((2, 6)), numpy=lambda a, b: np.square(a.astype(np.float64) - b),
                armnn_lacks="SQUARED_DIFFERENCE"),
    ]


def concat():
    r = rng("concat")
    return [
        op_case("concat.channels", "CONCATENATION",
                [In(normal(r, 1, 3, 3, 2)), In(normal(r, 1, 3, 3, 5)), In(normal(r, 1, 3, 3, 1))], Out((1, 3, 3, 8)),
                axis=3),
        op_case("concat.height", "CONCATENATION", [In(normal(r, 1, 2, 4, 3)), In(normal(r, 1, 3, 4, 3))],
                Out((1, 5, 4, 3)), axis=1),
        op_case("concat.negative_axis_2d", "CONCATENATION", [In(normal(r, 2, 3)), normal(r, 2, 4)], Out((2, 7)),
                axis=-1),
    ]


def reshape():
    r = rng("reshape")
    return [
        op_case("reshape.shape_tensor", "RESHAPE", [In(normal(r, 1, 4, 4, 3)), C([1, 48], I32)], Out((1, 48))),
        op_case("reshape.minus_one", "RESHAPE", [In(normal(r, 2, 3, 4)), C([-1, 2, 2], I32)], Out((6, 2, 2))),
        op_case("reshape.new_shape_option", "RESHAPE", [In(normal(r, 2, 6))], Out((3, 4)), new_shape=[3, 4]),
        op_case("reshape.squeeze", "SQUEEZE", [In(normal(r, 1, 1, 1, 8))], Out((1, 8)), squeeze_dims=[1, 2]),
        op_case("reshape.squeeze_all", "SQUEEZE", [In(normal(r, 1, 3, 1, 2))], Out((3, 2))),
        op_case("reshape.transpose_nchw", "TRANSPOSE", [In(normal(r, 1, 3, 4, 5)), C([0, 3, 1, 2], I32)],
                Out((1, 5, 3, 4))),
        op_case("reshape.transpose_3d", "TRANSPOSE", [In(normal(r, 2, 3, 4)), C([2, 0, 1], I32)], Out((4, 2, 3))),
    ]


def pad():
    r = rng("pad")
    return [
        op_case("pad.pad_hw", "PAD", [In(normal(r, 1, 3, 4, 2)), C([[0, 0], [1, 2], [2, 1], [0, 0]], I32)],
                Out((1, 6, 7, 2))),
        op_case("pad.pad_2d", "PAD", [In(normal(r, 3, 4)), C([[1, 0], [0, 2]], I32)], Out((4, 6))),
        op_case("pad.padv2_value", "PADV2",
                [In(normal(r, 1, 3, 3, 2)), C([[0, 0], [1, 1], [0, 2], [0, 0]], I32), C(np.float32(-1.5))],
                Out((1, 5, 5, 2)), numpy=lambda x, p, v: np.pad(x, p, constant_values=v), armnn_lacks="PADV2"),
    ]


def slice_ops():
    r = rng("slice")
    x = lambda: In(normal(r, 2, 6, 7, 4))
    return [
        op_case("slice.strided", "STRIDED_SLICE", [x(), C([0, 1, 0, 1], I32), C([2, 6, 7, 4], I32),
                                                  C([1, 2, 3, 1], I32)], Out((2, 3, 3, 3))),
        op_case("slice.strided_masks", "STRIDED_SLICE", [x(), C([1, 2, 0, 0], I32), C([0, 5, 0, 2], I32),
                                                        C([1, 1, 1, 1], I32)], Out((1, 3, 7, 2)),
                begin_mask=0b0100, end_mask=0b0101),
        op_case("slice.strided_negative", "STRIDED_SLICE", [x(), C([0, -3, 0, 0], I32), C([2, -1, 7, 4], I32),
                                                           C([1, 1, 2, 1], I32)], Out((2, 2, 4, 4))),
        op_case("slice.strided_shrink", "STRIDED_SLICE", [x(), C([1, 0, 2, 0], I32), C([2, 6, 3, 4], I32),
                                                         C([1, 1, 1, 1], I32)], Out((6, 4)),
                shrink_axis_mask=0b0101),
        op_case("slice.slice", "SLICE", [x(), C([0, 1, 2, 1], I32), C([2, 3, 4, 2], I32)], Out((2, 3, 4, 2))),
        op_case("slice.slice_to_end", "SLICE", [x(), C([1, 2, 0, 0], I32), C([-1, -1, 3, -1], I32)],
                Out((1, 4, 3, 4)), numpy=lambda x, b, s: x[1:, 2:, 0:3, 0:],
                armnn_lacks="SLICE sizes of -1 (its shape inference fails)"),
    ]


def split_pack():
    r = rng("split")
    return [
        op_case("split.split_channels", "SPLIT", [C(np.int32(3)), In(normal(r, 1, 3, 3, 6))],
                [Out((1, 3, 3, 2))] * 3, num_splits=3),
        op_case("split.split_axis1", "SPLIT", [C(np.int32(1)), In(normal(r, 2, 4, 3))], [Out((2, 2, 3))] * 2,
                num_splits=2),
        op_case("split.split_v", "SPLIT_V", [In(normal(r, 2, 7)), C([2, 4, 1], I32), C(np.int32(1))],
                [Out((2, 2)), Out((2, 4)), Out((2, 1))], num_splits=3),
        op_case("split.pack_axis0", "PACK", [In(normal(r, 3, 4)), In(normal(r, 3, 4))], Out((2, 3, 4)),
                values_count=2, axis=0),
        op_case("split.pack_axis_last", "PACK", [In(normal(r, 2, 3)), In(normal(r, 2, 3)), In(normal(r, 2, 3))],
                Out((2, 3, 3)), values_count=3, axis=2),
        op_case("split.unpack_axis1", "UNPACK", [In(normal(r, 2, 3, 4))], [Out((2, 4))] * 3, num=3, axis=1),
        op_case("split.unpack_axis0", "UNPACK", [In(normal(r, 2, 5))], [Out((5,))] * 2, num=2, axis=0),
    ]


def softmax():
    r = rng("softmax")
    return [
        op_case("softmax.2d", "SOFTMAX", [In(normal(r, 3, 10, scale=3))], Out((3, 10)), numpy=npref.softmax,
                beta=1.0),
        op_case("softmax.beta_half_4d", "SOFTMAX", [In(normal(r, 1, 2, 2, 5, scale=3))], Out((1, 2, 2, 5)),
                numpy=lambda x: npref.softmax(x, 0.5), beta=0.5),
        op_case("softmax.log_softmax", "LOG_SOFTMAX", [In(normal(r, 2, 10, scale=3))], Out((2, 10)),
                numpy=npref.log_softmax, armnn_lacks="LOG_SOFTMAX"),
    ]


def activations():
    r = rng("activations")
    x = lambda: In(normal(r, 1, 4, 5, 3, scale=4))
    return [
        op_case("activation.logistic", "LOGISTIC", [x()], Out((1, 4, 5, 3)), numpy=npref.logistic),
        op_case("activation.tanh", "TANH", [x()], Out((1, 4, 5, 3)), numpy=np.tanh),
        op_case("activation.relu", "RELU", [x()], Out((1, 4, 5, 3)), numpy=lambda v: npref.activation(v, "RELU")),
        op_case("activation.relu6", "RELU6", [x()], Out((1, 4, 5, 3)), numpy=lambda v: npref.activation(v, "RELU6")),
        op_case("activation.relu_n1_to_1", "RELU_N1_TO_1", [x()], Out((1, 4, 5, 3)),
                numpy=lambda v: np.clip(v, -1, 1), armnn_lacks="RELU_N1_TO_1"),
        op_case("activation.leaky_relu", "LEAKY_RELU", [x()], Out((1, 4, 5, 3)), alpha=0.2),
        op_case("activation.prelu_channel", "PRELU", [x(), uniform(r, 0, 0.5, 1, 1, 3)], Out((1, 4, 5, 3)),
                numpy=npref.prelu, armnn_lacks="PRELU"),
        op_case("activation.prelu_full", "PRELU", [x(), uniform(r, -0.5, 0.5, 4, 5, 3)], Out((1, 4, 5, 3)),
                numpy=npref.prelu, armnn_lacks="PRELU"),
        op_case("activation.hard_swish", "HARD_SWISH", [x()], Out((1, 4, 5, 3))),
    ]


def resize():
    r = rng("resize")
    x = lambda: In(normal(r, 1, 4, 5, 2))
    cases = []
    for kind, short, fn in (("RESIZE_BILINEAR", "bilinear", npref.resize_bilinear),
                            ("RESIZE_NEAREST_NEIGHBOR", "nearest", npref.resize_nearest)):
        # Arm NN 22 ignores half_pixel_centers, and align_corners for nearest neighbours.
        ignored = lambda what, fn=fn, kind=kind: dict(numpy=lambda v, s: fn(v, s, **{what: True}),
                                                      armnn_lacks=f"{kind}'s {what} (it ignores it)")
        cases += [
            op_case(f"resize.{short}_up2", kind, [x(), C([8, 10], I32)], Out((1, 8, 10, 2)), numpy=fn),
            op_case(f"resize.{short}_align_corners", kind, [x(), C([7, 9], I32)], Out((1, 7, 9, 2)),
                    align_corners=True, **(ignored("align_corners") if short == "nearest"
                                           else dict(numpy=lambda v, s, fn=fn: fn(v, s, align_corners=True)))),
            op_case(f"resize.{short}_half_pixel", kind, [x(), C([6, 8], I32)], Out((1, 6, 8, 2)),
                    half_pixel_centers=True, **ignored("half_pixel_centers")),
            op_case(f"resize.{short}_down", kind, [In(normal(r, 1, 7, 9, 2)), C([3, 4], I32)], Out((1, 3, 4, 2)),
                    numpy=fn),
        ]
    return cases


def space_depth():
    r = rng("space_depth")
    return [
        op_case("space_depth.space_to_depth", "SPACE_TO_DEPTH", [In(normal(r, 1, 4, 6, 3))], Out((1, 2, 3, 12)),
                numpy=lambda v: npref.space_to_depth(v, 2), armnn_lacks="SPACE_TO_DEPTH", block_size=2),
        op_case("space_depth.depth_to_space", "DEPTH_TO_SPACE", [In(normal(r, 1, 2, 3, 8))], Out((1, 4, 6, 2)),
                numpy=lambda v: npref.depth_to_space(v, 2), armnn_lacks="DEPTH_TO_SPACE", block_size=2),
    ]


def gather():
    r = rng("gather")
    lacks = dict(armnn_lacks="GATHER")
    return [
        op_case("gather.axis0", "GATHER", [In(normal(r, 5, 3)), C([4, 0, 2, 2], I32)], Out((4, 3)),
                numpy=lambda p, i: npref.gather(p, i, 0), axis=0, **lacks),
        op_case("gather.axis1_2d_indices", "GATHER", [In(normal(r, 2, 6, 3)), C([[5, 1], [0, 3], [2, 2]], I32)],
                Out((2, 3, 2, 3)), numpy=lambda p, i: npref.gather(p, i, 1), axis=1, **lacks),
        op_case("gather.negative_axis", "GATHER", [In(normal(r, 3, 4)), C([3, 1], I32)], Out((3, 2)),
                numpy=lambda p, i: npref.gather(p, i, -1), axis=-1, **lacks),
        op_case("gather.indices_input", "GATHER", [normal(r, 6, 4), In(np.array([5, 0, 3], I32))], Out((3, 4)),
                numpy=lambda p, i: npref.gather(p, i, 0), axis=0, **lacks),
    ]


def arg_max():
    r = rng("arg_max")
    return [
        op_case("arg_max.channels_int32", "ARG_MAX", [In(normal(r, 1, 3, 4, 6)), C([3], I32)], Out((1, 3, 4), I32),
                numpy=lambda x, a: np.argmax(x, axis=3), armnn_lacks="ARG_MAX", output_type=np.int32),
        op_case("arg_max.axis1_int64", "ARG_MAX", [In(normal(r, 2, 9)), C([1], I32)], Out((2,), np.int64),
                numpy=lambda x, a: np.argmax(x, axis=1), armnn_lacks="ARG_MAX", output_type=np.int64),
        op_case("arg_max.arg_min", "ARG_MIN", [In(normal(r, 4, 5)), C([0], I32)], Out((5,), I32),
                numpy=lambda x, a: np.argmin(x, axis=0), armnn_lacks="ARG_MIN", output_type=np.int32),
    ]


def cast():
    """CAST converts as C++'s static_cast does: float to integer truncates toward zero."""
    r = rng("cast")
    return [
        op_case("cast.float_to_int32", "CAST", [In(normal(r, 2, 8, scale=10))], Out((2, 8), I32),
                numpy=lambda x: np.trunc(x), armnn_lacks="CAST", in_data_type=F32, out_data_type=I32),
        op_case("cast.int32_to_float", "CAST", [In(r.integers(-1000, 1000, (3, 5)).astype(I32))], Out((3, 5)),
                numpy=lambda x: x, armnn_lacks="CAST", in_data_type=I32, out_data_type=F32),
    ]


def quantize():
    r = rng("quantize")
    u8 = lambda: In(r.integers(0, 256, (2, 6)).astype(np.uint8), q=(0.1, 128))
    pc_scale, pc_zero = np.array([0.05, 0.2, 0.01], np.float32), np.array([3, -9, 0])
    i32 = r.integers(-300000, 300000, (2, 6)).astype(np.int32)
    pc_scale6 = np.array([0.001, 0.002, 0.0005, 0.01, 0.003, 0.0001], np.float32)
    pc_zero6 = np.array([0, 5, 100, 7, 0, 255])  # within uint8: glowc once wrote these past a 2-byte-per-value buffer
    return [
        op_case("quantize.quantize_int8", "QUANTIZE", [In(normal(r, 1, 4, 4, 3))],
                Out((1, 4, 4, 3), np.int8, (0.02, -3))),
        op_case("quantize.dequantize_int8", "DEQUANTIZE",
                [In(r.integers(-128, 128, (1, 4, 4, 3)).astype(np.int8), q=(0.05, 7))], Out((1, 4, 4, 3))),
        op_case("quantize.dequantize_uint8", "DEQUANTIZE", [u8()], Out((2, 6))),
        op_case("quantize.dequantize_uint8_kept", "DEQUANTIZE", [u8()], Out((2, 6)), keep_uint8=True),
        op_case("quantize.dequantize_int8_per_channel", "DEQUANTIZE",
                [In(r.integers(-128, 128, (1, 2, 2, 3)).astype(np.int8), q=(pc_scale, pc_zero, 3))],
                Out((1, 2, 2, 3)), numpy=lambda x: (x.astype(np.float32) - pc_zero) * pc_scale,
                armnn_lacks="per-axis DEQUANTIZE on CpuRef"),
        # TFLite's kernel takes no int32; glowc does (ONNX's DequantizeLinear does), so numpy checks it
        op_case("quantize.dequantize_int32", "DEQUANTIZE", [In(i32, q=(0.001, -70000))], Out((2, 6)),
                numpy=lambda x: ((x.astype(np.float64) + 70000) * 0.001).astype(np.float32),
                armnn_lacks="int32 DEQUANTIZE"),
        op_case("quantize.dequantize_int32_per_channel", "DEQUANTIZE", [In(i32, q=(pc_scale6, pc_zero6, 1))],
                Out((2, 6)), numpy=lambda x: ((x.astype(np.float64) - pc_zero6) * pc_scale6).astype(np.float32),
                armnn_lacks="int32 DEQUANTIZE"),
    ]


# Unary math: the inputs where each operator is defined (log, sqrt and rsqrt positive; round
# with halves). Arm NN 22's parser has EXP and NEG of these; the others take numpy.
UNARY_ARMNN = {"EXP", "NEG"}


def unary():
    r = rng("unary")
    cases = []
    for op in ("ABS", "CEIL", "COS", "EXP", "FLOOR", "LOG", "NEG", "ROUND", "RSQRT", "SIN", "SQRT", "SQUARE",
               "SIGN", "ELU", "GELU"):
        if op in ("LOG", "SQRT", "RSQRT"):
            x = uniform(r, 0.05, 5, 2, 3, 4)
        elif op == "ROUND":
            x = (np.round(normal(r, 2, 3, 4, scale=6)) + r.choice([-0.5, 0.5, 0.25], (2, 3, 4))).astype(F32)
        else:
            x = normal(r, 2, 3, 4, scale=2)
        ref = {} if op in UNARY_ARMNN else dict(numpy=npref.UNARY[op], armnn_lacks=op)
        cases.append(op_case(f"unary.{op.lower()}", op, [In(x)], Out(x.shape), **ref))
    b = r.integers(0, 2, (3, 4)).astype(np.bool_)
    cases.append(op_case("unary.logical_not", "LOGICAL_NOT", [In(b)], Out(b.shape, np.bool_),
                         numpy=npref.UNARY["LOGICAL_NOT"], armnn_lacks="LOGICAL_NOT"))
    return cases


def compare():
    """The inputs are small integers as floats, so that some elements are equal."""
    r = rng("compare")
    cases = []
    for op in npref.COMPARE:
        a = r.integers(-2, 3, (2, 3, 4)).astype(F32)
        b = r.integers(-2, 3, (3, 4)).astype(F32)
        cases.append(op_case(f"compare.{op.lower()}", op, [In(a), In(b)], Out(a.shape, np.bool_),
                             numpy=npref.COMPARE[op], armnn_lacks=op))
    a = r.integers(-3, 4, (4, 5)).astype(I32)
    cases.append(op_case("compare.less_int32_scalar", "LESS", [In(a), C(np.int32(1))], Out(a.shape, np.bool_),
                         numpy=npref.COMPARE["LESS"], armnn_lacks="LESS"))
    return cases


GROUPS = {"conv": conv, "depthwise": depthwise, "transpose_conv": transpose_conv,
          "fully_connected": fully_connected, "pool": pool, "mean": mean, "binary": binary, "concat": concat,
          "reshape": reshape, "pad": pad, "slice": slice_ops, "split": split_pack, "softmax": softmax,
          "activation": activations, "resize": resize, "space_depth": space_depth, "gather": gather,
          "arg_max": arg_max, "cast": cast, "quantize": quantize, "unary": unary, "compare": compare}
