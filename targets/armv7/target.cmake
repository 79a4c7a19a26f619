# Kernel bitcode for 32-bit Arm Linux (Armv7-A, ARM state, hard-float ABI, NEON, ELF).
set(GLOWC_TARGET_TRIPLE armv7-linux-gnueabihf)
set(GLOWC_TARGET_CFLAGS "-mfpu=neon -mfloat-abi=hard")
set(GLOWC_TARGET_KERNEL_SOURCES)
set(GLOWC_TARGET_KERNEL_HEADERS)
