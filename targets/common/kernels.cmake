# Portable kernels, compiled to bitcode for every target (paths relative to
# targets/common), one section per op group as in compiler/ops/sources.cmake.
set(GLOWC_KERNEL_SOURCES
  kernels/copy.c
  # tensor
  kernels/movement.c
  kernels/indexing.c
  kernels/generate.c
  kernels/tfidf.c
  kernels/scan.c
  kernels/resize.c
  # elementwise
  kernels/ew-arith.c
  kernels/ew-pow.c
  kernels/ew-compare.c
  kernels/ew-variadic.c
  kernels/ew-cast.c
  # unary
  kernels/unary-math.c
  kernels/unary-clip.c
  # nn
  kernels/gemm.c
  kernels/einsum.c
  kernels/conv.c
  kernels/conv-dw.c
  kernels/conv-transpose.c
  kernels/conv-winograd.c
  kernels/conv-pool.c
  kernels/norm.c
  kernels/det.c
  kernels/pool.c
  kernels/rnn.c
  kernels/grid-sample.c
  kernels/roi-align.c
  # reduce
  kernels/softmax.c
  kernels/reduce.c
  kernels/argmax.c
  kernels/loss.c
  # quant
  kernels/quant.c
  kernels/qconv.c
  kernels/qgemm.c
  # signal
  kernels/dft.c
)
