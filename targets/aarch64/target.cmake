# Kernel bitcode for AArch64 (AAPCS64, ELF). CPU features come from -mcpu/-mattr at model-compile time.
set(GLOWC_TARGET_TRIPLE aarch64-linux-gnu)
# No outline atomics (the kernels have no atomics): else clang sets +outline-atomics only where it
# finds the aarch64 cross gcc, and the bitcode depends on the machine (targets/BUILD: the same).
set(GLOWC_TARGET_CFLAGS "-mno-outline-atomics")
set(GLOWC_TARGET_KERNEL_SOURCES)
# Headers here that replace common/ ones (kernels depend on them).
set(GLOWC_TARGET_KERNEL_HEADERS qdot.h)
