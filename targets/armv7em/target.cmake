# Kernel bitcode for Cortex-M4/M7 (Armv7E-M, Thumb-2, bare metal, ELF). The float ABI
# (-float-abi / the triple's eabi or eabihf) and FPU come from the compile options.
# -fshort-enums: the enum size of arm-none-eabi gcc, which the linker checks.
# 8 KiB stack panels in conv and matmul (64 KiB elsewhere): microcontroller stacks are small.
set(GLOWC_TARGET_TRIPLE thumbv7em-none-eabihf)
set(GLOWC_TARGET_CFLAGS "-mcpu=cortex-m4 -mfloat-abi=hard -fshort-enums -DGLOW_STACK_PANEL_FLOATS=2048 -DGLOW_QDOT_MCU=1")
set(GLOWC_TARGET_KERNEL_SOURCES)
set(GLOWC_TARGET_KERNEL_HEADERS)
