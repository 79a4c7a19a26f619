# Kernel bitcode for Cortex-M33 (Armv8-M Mainline, Thumb-2, bare metal, ELF) with its FPU and DSP
# extension; the float ABI comes from the compile options, as on armv7em. 8 KiB stack panels.
set(GLOWC_TARGET_TRIPLE thumbv8m.main-none-eabihf)
set(GLOWC_TARGET_CFLAGS "-mcpu=cortex-m33 -mfloat-abi=hard -fshort-enums -DGLOW_STACK_PANEL_FLOATS=2048 -DGLOW_QDOT_MCU=1")
set(GLOWC_TARGET_KERNEL_SOURCES)
set(GLOWC_TARGET_KERNEL_HEADERS)
