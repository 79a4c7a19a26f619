# Kernel bitcode for Cortex-M55 (Armv8.1-M Mainline, Thumb-2, bare metal, ELF) with MVE (integer
# and float) and its FPU; the float ABI comes from the compile options. 8 KiB stack panels.
set(GLOWC_TARGET_TRIPLE thumbv8.1m.main-none-eabihf)
set(GLOWC_TARGET_CFLAGS "-mcpu=cortex-m55 -mfloat-abi=hard -fshort-enums -DGLOW_STACK_PANEL_FLOATS=2048 -DGLOW_QDOT_MCU=1")
set(GLOWC_TARGET_KERNEL_SOURCES)
set(GLOWC_TARGET_KERNEL_HEADERS)
