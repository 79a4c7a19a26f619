# Op definitions (paths relative to compiler/), one section per group; each
# group's ops are listed in ir/ops-<group>.def.
set(GLOWC_OP_SOURCES
  ops/op-table.c
  ops/op-util.c
  # tensor: ir/ops-tensor.def
  ops/tensor-reshape.c
  ops/tensor-util.c
  ops/tensor-transpose.c
  ops/tensor-concat.c
  ops/tensor-slice.c
  ops/tensor-gather.c
  ops/tensor-scatter.c
  ops/tensor-shape.c
  ops/tensor-scan.c
  ops/tensor-resize.c
  ops/tensor-window.c
  ops/tensor-reverse.c
  ops/text-tfidf.c
  # elementwise: ir/ops-elementwise.def
  ops/elementwise-util.c
  ops/elementwise-binary.c
  ops/elementwise-compare.c
  ops/elementwise-variadic.c
  ops/elementwise-cast.c
  # unary: ir/ops-unary.def
  ops/unary-math.c
  ops/unary-clip.c
  # nn: ir/ops-nn.def
  ops/nn-gemm.c
  ops/nn-einsum.c
  ops/nn-window.c
  ops/nn-conv.c
  ops/nn-conv-winograd.c
  ops/nn-conv-pool.c
  ops/nn-convtranspose.c
  ops/nn-norm.c
  ops/nn-pool.c
  ops/nn-unpool.c
  ops/nn-det.c
  ops/nn-rnn.c
  ops/nn-gridsample.c
  ops/nn-roialign.c
  # reduce: ir/ops-reduce.def
  ops/reduce-softmax.c
  ops/reduce-axes.c
  ops/reduce-arg.c
  ops/reduce-loss.c
  # quant: ir/ops-quant.def
  ops/quant-linear.c
  ops/quant-pool.c
  ops/quant-concat.c
  ops/quant-lookup.c
  # signal: ir/ops-signal.def
  ops/signal-dft.c
  ops/signal-stft.c
  ops/signal-mel.c
  # custom: ir/ops-custom.def
  ops/custom-call.c
)
