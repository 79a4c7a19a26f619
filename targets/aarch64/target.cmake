# Kernel bitcode for AArch64 (AAPCS64, ELF). CPU features come from -mcpu/-mattr at model-compile time.
set(GLOWC_TARGET_TRIPLE aarch64-linux-gnu)
set(GLOWC_TARGET_CFLAGS "")
set(GLOWC_TARGET_KERNEL_SOURCES)
# Headers here that replace common/ ones (kernels depend on them).
set(GLOWC_TARGET_KERNEL_HEADERS qdot.h)
