# Kernel bitcode for NVIDIA GPUs (LLVM's NVPTX backend; PTX is made at model-compile time for
# -mcpu=sm_XX). Each kernel runs on one GPU thread, so its stack panels are per-thread local
# memory, which the driver reserves for every thread the GPU can hold: 8 KiB panels, as on
# Cortex-M. NVPTX has no variable-length arrays (GLOW_NO_VLA: fixed buffers instead).
set(GLOWC_TARGET_TRIPLE nvptx64-nvidia-cuda)
# -fno-stack-protector (every target gets it) means nothing to NVPTX. target.c's
# stack_panel_floats repeats the panel size for codegen's RNN size check. The PTX ISA is pinned
# (target.c's default_features) and no CUDA install searched: else clang takes both from the
# host's /usr/local/cuda, and the bitcode depends on the machine (targets/BUILD: the same).
set(GLOWC_TARGET_CFLAGS "-DGLOW_STACK_PANEL_FLOATS=2048 -DGLOW_NO_VLA -Wno-unused-command-line-argument --cuda-feature=+ptx78 --cuda-path=")
set(GLOWC_TARGET_KERNEL_SOURCES)
set(GLOWC_TARGET_KERNEL_HEADERS)
# The host side of a CUDA bundle (launch.c: load the PTX, launch the steps), as bitcode for
# each host architecture a CUDA bundle's object can be for.
set(GLOWC_CUDA_HOSTS x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu)
