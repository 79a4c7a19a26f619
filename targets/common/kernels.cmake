# Portable kernels, compiled to bitcode for every target (paths relative to targets/common).
set(GLOWC_KERNEL_SOURCES
  kernels/copy.c
  kernels/relu.c
  kernels/add.c
  kernels/gemm.c
  kernels/softmax.c
)
