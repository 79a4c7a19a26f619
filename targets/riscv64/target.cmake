# Kernel bitcode for RISC-V 64 (RV64GC, lp64d ABI, ELF). Extensions such as V come from -mattr at model-compile time.
set(GLOWC_TARGET_TRIPLE riscv64-linux-gnu)
set(GLOWC_TARGET_CFLAGS "-march=rv64gc -mabi=lp64d")
set(GLOWC_TARGET_KERNEL_SOURCES)
set(GLOWC_TARGET_KERNEL_HEADERS)
