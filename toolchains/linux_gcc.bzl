"""linux_gcc_cross(): a Linux target platform and the C toolchain for it, Debian's cross gcc.

The toolchain configuration is Bazel's own for the host (unix_cc_toolchain_config.bzl, what
`cc_configure` writes into @local_config_cc) with the host's flags, so a cross build compiles
glowc's code the way the host build does; only the tools and the include directories differ."""

load("@bazel_tools//tools/cpp:unix_cc_toolchain_config.bzl", "cc_toolchain_config")

def linux_gcc_cross(name, cpu, triple, cpu_flags = []):
    """Declares platform `name`, and toolchain `name`_toolchain that gives it `triple`-gcc.

    Args:
      name: the platform's name (linux_<cpu>).
      cpu: the @platforms//cpu constraint (and Bazel's target_cpu), e.g. aarch64.
      triple: the GNU triple Debian's packages use: /usr/bin/<triple>-gcc, /usr/<triple>/include,
        /usr/lib/gcc-cross/<triple>/ (gcc-<triple> libc6-dev-<arch>-cross).
      cpu_flags: the flags that pick the CPU and its ABI where the triple's default is not the
        platform's (-mfpu=neon for Armv7 with NEON), in both the compile and the link flags.
    """
    constraints = ["@platforms//os:linux", "@platforms//cpu:" + cpu]
    native.platform(
        name = name,
        constraint_values = constraints,
    )
    cc_toolchain_config(
        name = name + "_config",
        cpu = cpu,
        compiler = "gcc",
        toolchain_identifier = triple + "-gcc",
        host_system_name = "x86_64-linux-gnu",
        target_system_name = triple,
        target_libc = "glibc",
        abi_version = "gcc",
        abi_libc_version = "glibc",
        # Prefixes: gcc's own headers are under a versioned folder. Not /usr/include, which
        # Debian's cross gcc also searches: a host header there is an error, not a silent mix.
        cxx_builtin_include_directories = [
            "/usr/lib/gcc-cross/%s/" % triple,
            "/usr/%s/include" % triple,
        ],
        # llvm-cov (clang coverage only) runs on the exec machine: the host's, as in @local_config_cc.
        tool_paths = dict(
            [
                (tool, "/usr/bin/%s-%s" % (triple, tool))
                for tool in ["ar", "cpp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "strip"]
            ],
            **{"llvm-cov": "/usr/bin/llvm-cov"}
        ),
        # The host toolchain's flags (@local_config_cc//:BUILD) less its gold and /usr/bin
        # linker choice: gold has no RISC-V, and the cross gcc finds its own ld.
        compile_flags = cpu_flags + [
            "-U_FORTIFY_SOURCE",
            "-fstack-protector",
            "-Wall",
            "-Wunused-but-set-parameter",
            "-Wno-free-nonheap-object",
            "-fno-omit-frame-pointer",
        ],
        opt_compile_flags = [
            "-g0",
            "-O2",
            "-D_FORTIFY_SOURCE=1",
            "-DNDEBUG",
            "-ffunction-sections",
            "-fdata-sections",
        ],
        dbg_compile_flags = ["-g"],
        link_flags = cpu_flags + [
            "-Wl,-no-as-needed",
            "-Wl,-z,relro,-z,now",
            "-pass-exit-codes",
        ],
        # C only: Debian's gcc-<triple> has no libstdc++ (g++-<triple> brings it).
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

    # The tools are absolute paths outside the workspace: no files to ship to actions.
    native.cc_toolchain(
        name = name + "_cc",
        toolchain_identifier = triple + "-gcc",
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
