"""arm_none_eabi_gcc(): a bare-metal Cortex-M platform and its C toolchain, Debian's arm-none-eabi gcc.

As linux_gcc.bzl, the configuration is Bazel's own unix_cc_toolchain_config; the CPU flags are in
both the compile and the link flags, so gcc links newlib and libgcc of the core's multilib
(thumb/v6-m/nofp for a Cortex-M0, thumb/v7e-m+fp/hard for an M4F, ...): a mismatch would be the
linker's "uses VFP register arguments" error, or floats passed in the wrong registers."""

load("@bazel_tools//tools/cpp:unix_cc_toolchain_config.bzl", "cc_toolchain_config")

_TRIPLE = "arm-none-eabi"

def arm_none_eabi_gcc(name, core, cpu_flags):
    """Declares platform `name` (bare metal, the Arm `core`) and toolchain `name`_toolchain.

    Args:
      name: the platform's name (cortex_m<n>).
      core: the //toolchains/arm:core value, e.g. cortex-m4 (glow_bundle's -mcpu).
      cpu_flags: gcc's -mcpu, -mthumb, -mfloat-abi and -mfpu for the core, as the CMake
        toolchain files (arm-none-eabi-cortex-m<n>.cmake) give them.
    """
    constraints = [
        "@platforms//os:none",
        "@platforms//cpu:arm",
        "//toolchains/arm:" + core,
    ]
    native.platform(
        name = name,
        constraint_values = constraints,
    )
    cc_toolchain_config(
        name = name + "_config",
        cpu = "arm",
        compiler = "gcc",
        toolchain_identifier = "%s-gcc-%s" % (_TRIPLE, core),
        host_system_name = "x86_64-linux-gnu",
        target_system_name = _TRIPLE,
        target_libc = "newlib",
        abi_version = "gcc",
        abi_libc_version = "newlib",
        # gcc's own headers (a versioned folder) and newlib's (gcc-arm-none-eabi,
        # libnewlib-arm-none-eabi).
        cxx_builtin_include_directories = [
            "/usr/lib/gcc/%s/" % _TRIPLE,
            "/usr/lib/%s/include" % _TRIPLE,
        ],
        tool_paths = dict(
            [
                (tool, "/usr/bin/%s-%s" % (_TRIPLE, tool))
                for tool in ["ar", "cpp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "strip"]
            ],
            **{"llvm-cov": "/usr/bin/llvm-cov"}
        ),
        # The host's flags less what bare metal has not got: newlib has no stack-protector
        # guard nor _FORTIFY_SOURCE checks, and there is no dynamic loader for relro.
        compile_flags = cpu_flags + [
            "-Wall",
            "-Wunused-but-set-parameter",
            "-Wno-free-nonheap-object",
        ],
        opt_compile_flags = [
            "-g0",
            "-O2",
            "-DNDEBUG",
            "-ffunction-sections",
            "-fdata-sections",
        ],
        dbg_compile_flags = ["-g"],
        # No startup code, linker script or system calls: each board's program brings its
        # own (or adds --specs=nosys.specs to link against newlib's stubs).
        # newlib's crt files have no .note.GNU-stack: ld 2.39 and later warn that the stack is
        # then executable, which means nothing without an MMU.
        link_flags = cpu_flags + [
            "-pass-exit-codes",
            "-Wl,--no-warn-execstack",
        ],
        link_libs = ["-lm"],
        opt_link_flags = ["-Wl,--gc-sections"],
        unfiltered_compile_flags = [
            "-fno-canonical-system-headers",
            "-Wno-builtin-macro-redefined",
            "-D__DATE__=\"redacted\"",
            "-D__TIMESTAMP__=\"redacted\"",
            "-D__TIME__=\"redacted\"",
        ],
        coverage_compile_flags = ["--coverage"],
        coverage_link_flags = ["--coverage"],
        supports_start_end_lib = False,
    )
    native.cc_toolchain(
        name = name + "_cc",
        toolchain_identifier = "%s-gcc-%s" % (_TRIPLE, core),
        toolchain_config = name + "_config",
        all_files = ":empty",
        ar_files = ":empty",
        as_files = ":empty",
        compiler_files = ":empty",
        dwp_files = ":empty",
        linker_files = ":empty",
        objcopy_files = ":empty",
        strip_files = ":empty",
        supports_param_files = 1,
    )
    native.toolchain(
        name = name + "_toolchain",
        exec_compatible_with = [
            "@platforms//os:linux",
            "@platforms//cpu:x86_64",
        ],
        target_compatible_with = constraints,
        toolchain = name + "_cc",
        toolchain_type = "@bazel_tools//tools/cpp:toolchain_type",
    )
