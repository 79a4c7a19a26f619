# Kernel bitcode for Cortex-M0/M0+ (Armv6-M, Thumb-1, bare metal, ELF): no FPU (soft float,
# eabi), no DSP. -fshort-enums: the enum size of arm-none-eabi gcc, which the linker checks.
# 2 KiB stack panels in conv and matmul: an M0 board may have 16 KiB of RAM in all.
set(GLOWC_TARGET_TRIPLE thumbv6m-none-eabi)
set(GLOWC_TARGET_CFLAGS "-mcpu=cortex-m0 -mfloat-abi=soft -fshort-enums -DGLOW_STACK_PANEL_FLOATS=512 -DGLOW_QDOT_MCU=1")
set(GLOWC_TARGET_KERNEL_SOURCES)
set(GLOWC_TARGET_KERNEL_HEADERS)
