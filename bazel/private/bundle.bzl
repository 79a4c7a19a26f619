"""glow_bundle: an ONNX or TFLite model compiled into a bundle that cc_* rules link like a library."""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")
load("@local_config_platform//:constraints.bzl", "HOST_CONSTRAINTS")
load(":plugins.bzl", "PLUGIN_ATTRS", "add_plugin_args")

# The triple for a target platform's @platforms//cpu, as add_glow_bundle() derives it from
# CMAKE_SYSTEM_PROCESSOR (cmake/GlowBundle.cmake).
_TRIPLES = {
    "aarch64": "aarch64-linux-gnu",
    "armv7": "armv7-linux-gnueabihf",
    "riscv64": "riscv64-linux-gnu",
    "x86_64": "x86_64-unknown-linux-gnu",
}

# The triple for a bare-metal platform's Arm core (@glowc//toolchains/arm:core), whose name is
# also the bundle's -mcpu: a Cortex-M4 and an M7 share the triple, not the CPU. eabi (M0: no
# FPU) passes floats in core registers, eabihf in FPU registers, as the cores' C toolchains do.
_ARM_CORES = {
    "cortex-m0": "thumbv6m-none-eabi",
    "cortex-m4": "thumbv7em-none-eabihf",
    "cortex-m7": "thumbv7em-none-eabihf",
    "cortex-m33": "thumbv8m.main-none-eabihf",
    "cortex-m55": "thumbv8.1m.main-none-eabihf",
}

_HOST_CPU = [c for c in HOST_CONSTRAINTS if c.startswith("@platforms//cpu:")]

def _archive(ctx, cc_toolchain, feature_configuration, obj):
    """Wraps the bundle's object in a static library with the toolchain's archiver.

    Bazel 4.2.3 accepts objects in create_library_to_link only behind
    --experimental_starlark_cc_import, which every consuming workspace would need."""
    archive = ctx.actions.declare_file("%s.bundle/lib%s.a" % (ctx.label.name, ctx.label.name))
    action = ACTION_NAMES.cpp_link_static_library
    variables = cc_common.create_link_variables(
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        output_file = archive.path,
        is_using_linker = False,
    )
    args = ctx.actions.args()
    args.add_all(cc_common.get_memory_inefficient_command_line(
        feature_configuration = feature_configuration,
        action_name = action,
        variables = variables,
    ))
    args.add(obj)
    ctx.actions.run(
        executable = cc_common.get_tool_for_action(
            feature_configuration = feature_configuration,
            action_name = action,
        ),
        arguments = [args],
        env = cc_common.get_environment_variables(
            feature_configuration = feature_configuration,
            action_name = action,
            variables = variables,
        ),
        inputs = depset([obj], transitive = [cc_toolchain.all_files]),
        outputs = [archive],
        mnemonic = "GlowBundleArchive",
        progress_message = "Archiving bundle %s" % ctx.label,
    )
    return archive

def _has_target_option(options):
    for o in options:
        if o.lstrip("-").partition("=")[0] == "target":
            return True
    return False

def _triple(ctx):
    """The -target triple: `target`, else the target platform's, else None (the host's).

    As in add_glow_bundle(), nothing is passed when not cross-compiling, so a host build is
    the same command, and the same bundle, as before platforms were known."""
    if _has_target_option(ctx.attr.options):
        if ctx.attr.target:
            fail("the triple is set both here and by a -target in `options`", "target")
        return None
    if ctx.attr.target:
        return ctx.attr.target
    return _platform_triple(ctx)

def _platform_core(ctx):
    """The target platform's Arm core (cortex-m4, ...), None when it names none."""
    for core in ctx.attr._arm_cores:
        if ctx.target_platform_has_constraint(core[platform_common.ConstraintValueInfo]):
            return core.label.name
    return None

def _platform_triple(ctx):
    """The target platform's triple, None when it is the host's CPU."""
    core = _platform_core(ctx)
    if core:
        return _ARM_CORES[core]
    host = ctx.attr._host_cpu
    if host and ctx.target_platform_has_constraint(host[platform_common.ConstraintValueInfo]):
        return None
    for cpu in ctx.attr._cpus:
        if ctx.target_platform_has_constraint(cpu[platform_common.ConstraintValueInfo]):
            return _TRIPLES[cpu.label.name]
    fail("the target platform's CPU is none of %s, and it has no Arm core of @glowc//toolchains/arm (%s): " % (
        ", ".join(_TRIPLES),
        ", ".join(_ARM_CORES),
    ) + "set the triple with `target`", "target")

def _rlocation(ctx, f):
    """A file's runfiles path, as glow_runfile() takes it: <workspace>/<path>; a file of an
    external repository (short_path ../<repository>/<path>) under its repository's name."""
    if f.short_path.startswith("../"):
        return f.short_path[3:]
    return ctx.workspace_name + "/" + f.short_path

def _glow_bundle_impl(ctx):
    name = ctx.attr.network_name or ctx.label.name
    if not (name[0].isalpha() or name[0] == "_") or not name.replace("_", "a").isalnum():
        fail("network_name '%s' is not a C identifier" % name, "network_name")

    # The compiler writes <dir>/<name>.*; the directory is per target so that two
    # bundles in one package may share a network name.
    obj = ctx.actions.declare_file("%s.bundle/%s.o" % (ctx.label.name, name))
    hdr = ctx.actions.declare_file("%s.bundle/%s.h" % (ctx.label.name, name))
    # As add_glow_bundle: txt comes with the .bin, the static API's .bin with its
    # .txt; zst writes .weights.zst unless embedded (then packed in the object).
    kinds = []
    for kind in ctx.attr.weights:
        if kind not in ("bin", "txt", "zst", "embedded"):
            fail("weights must be bin, txt, zst or embedded (one or more), not '%s'" % kind, "weights")
        if kind not in kinds:
            kinds.append(kind)
    if not kinds:
        fail("weights is empty", "weights")
    if "txt" in kinds or ("bin" in kinds and ctx.attr.bundle_api == "static"):
        kinds = [k for k in kinds if k not in ("bin", "txt")] + ["bin", "txt"]
    weights = []
    for kind in ("bin", "txt"):
        if kind in kinds:
            weights.append(ctx.actions.declare_file("%s.bundle/%s.weights.%s" % (ctx.label.name, name, kind)))
    if "zst" in kinds and "embedded" not in kinds:
        weights.append(ctx.actions.declare_file("%s.bundle/%s.weights.zst" % (ctx.label.name, name)))

    args = ctx.actions.args()
    args.add(ctx.file.model, format = "-model=%s")
    args.add(obj.dirname, format = "-emit-bundle=%s")
    args.add(name, format = "-network-name=%s")
    args.add(ctx.attr.bundle_api, format = "-bundle-api=%s")
    triple = _triple(ctx)
    if triple:
        args.add(triple, format = "-target=%s")
    cuda = (triple or "").startswith("nvptx64-")
    if cuda:
        # A CUDA bundle's object is for the machine the program runs on: the target platform's.
        if "embedded" in kinds:
            fail("weights = [\"embedded\"] is not for a CUDA bundle: its weights are copied to device memory from a weights file", "weights")
        host_triple = _platform_triple(ctx)
        if host_triple:
            args.add(host_triple, format = "-cuda-host=%s")
    if not [o for o in ctx.attr.options if o.startswith("-mcpu=")]:
        # A triple from a Cortex-M platform comes with its core; `target` takes `cpu` as given.
        core = _platform_core(ctx) if triple and not ctx.attr.target else None
        args.add(core if core and ctx.attr.cpu == "baseline" else ctx.attr.cpu, format = "-mcpu=%s")
    if ctx.attr.num_threads < 1:
        fail("num_threads must be at least 1", "num_threads")
    if ctx.attr.num_threads > 1:
        args.add(str(ctx.attr.num_threads), format = "-num-threads=%s")
    if ctx.attr.ram_size:
        args.add(ctx.attr.ram_size, format = "-ram-size=%s")
    if ctx.attr.flash_size:
        args.add(ctx.attr.flash_size, format = "-flash-size=%s")
    inputs = [ctx.file.model]
    if ctx.file.profile:
        args.add(ctx.file.profile, format = "-load-profile=%s")
        inputs.append(ctx.file.profile)
    args.add(",".join(kinds), format = "-weights=%s")
    args.add_all(ctx.attr.model_inputs, format_each = "-model-input=%s")
    inputs += add_plugin_args(ctx, args)
    args.add_all(ctx.attr.options)

    ctx.actions.run(
        executable = ctx.executable._compiler,
        arguments = [args],
        inputs = inputs,
        outputs = [obj, hdr] + weights,
        mnemonic = "GlowBundle",
        progress_message = "Compiling %s into bundle %s (%s)" % (ctx.file.model.short_path, name, ctx.label),
    )

    cc_toolchain = find_cpp_toolchain(ctx)
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    # With the static API, programs #include "<name>.weights.txt" as well. Programs find each
    # weights file among their runfiles by GLOW_RUNFILE_<name>_weights_<ext> (glow_runfile()).
    compilation_context = cc_common.create_compilation_context(
        headers = depset([hdr] + [w for w in weights if w.extension == "txt"]),
        includes = depset([hdr.dirname]),
        defines = depset(['GLOW_RUNFILE_%s_weights_%s="%s"' % (name, w.extension, _rlocation(ctx, w)) for w in weights]),
    )
    library = cc_common.create_library_to_link(
        actions = ctx.actions,
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        static_library = _archive(ctx, cc_toolchain, feature_configuration, obj),
        alwayslink = True,
    )
    linking_context = cc_common.create_linking_context(
        linker_inputs = depset([cc_common.create_linker_input(
            owner = ctx.label,
            libraries = depset([library]),
        )]),
    )
    return [
        DefaultInfo(
            files = depset([obj, hdr] + weights),
            runfiles = ctx.runfiles(files = weights),
        ),
        # A CUDA bundle's driver calls resolve in glowc_runtime_cuda (which loads libcuda at run time).
        cc_common.merge_cc_infos(cc_infos = [
            CcInfo(compilation_context = compilation_context, linking_context = linking_context),
        ] + ([ctx.attr._runtime_cuda[CcInfo]] if cuda else [])),
        OutputGroupInfo(
            weights = depset(weights),
            header = depset([hdr]),
            object = depset([obj]),
        ),
    ]

glow_bundle = rule(
    implementation = _glow_bundle_impl,
    doc = """Compiles an ONNX or TFLite model into a Glow bundle at build time.

`cc_binary(deps = [":<name>"])` links the bundle's object and can
`#include "<network_name>.h"`; the weights file(s) are outputs (output group
`weights`) and runfiles of the target, so a binary depending on it finds them
under its runfiles at `<package>/<name>.bundle/<network_name>.weights.bin`: it
is compiled with `GLOW_RUNFILE_<network_name>_weights_bin` (`_txt`, `_zst`)
defined as that runfiles path, which the runtime's `glow_runfile()` resolves
(`bazel run` needs no weights argument).
The compiler runs on the execution platform; the bundle is compiled for the
target platform: with `--platforms=@glowc//toolchains:linux_aarch64` (and
`--incompatible_enable_cc_toolchain_resolution`, so that the program links
with the cross toolchain too) it gets `-target=aarch64-linux-gnu`; with a
Cortex-M platform (`@glowc//toolchains:cortex_m4`, ...) its core's triple and
CPU (`-target=thumbv7em-none-eabihf -mcpu=cortex-m4`).""",
    attrs = dict(PLUGIN_ATTRS, **{
        "model": attr.label(
            doc = "The model: an ONNX file or a TFLite file (`.tflite`). Editing it recompiles the bundle.",
            allow_single_file = [".onnx", ".tflite"],
            mandatory = True,
        ),
        "network_name": attr.string(
            doc = "The bundle's name: symbol, header and file names (default: the target's name). A C identifier.",
        ),
        "bundle_api": attr.string(
            doc = "`dynamic` (the runtime library can use it) or `static` (also writes `<network_name>.weights.txt`).",
            default = "dynamic",
            values = ["static", "dynamic"],
        ),
        "profile": attr.label(
            doc = "A quantization profile (`-load-profile`): a `glow_profile` target or a YAML file; the bundle is then int8.",
            allow_single_file = True,
        ),
        "weights": attr.string_list(
            doc = "How the weights ship, one or more of (`-weights=`): `bin` (the default; with the static API also `<network_name>.weights.txt`), `txt` (the same), `zst` (`<network_name>.weights.zst`, packed and checked: load it with `glow_weights_load_zst` from `@glowc//runtime:glowc_runtime_zst`), `embedded` (inside the object, no weights file); `embedded` with `zst`: the packed bytes inside the object (`glow_weights_unpack`).",
            default = ["bin"],
        ),
        "target": attr.string(
            doc = "The target triple (`-target=`). Default: the target platform's (`aarch64-linux-gnu`, `armv7-linux-gnueabihf`, `riscv64-linux-gnu`, `x86_64-unknown-linux-gnu` for `@platforms//cpu:aarch64`, `armv7`, `riscv64`, `x86_64`; `thumbv6m-none-eabi`, `thumbv7em-none-eabihf`, `thumbv8m.main-none-eabihf`, `thumbv8.1m.main-none-eabihf` for the Arm cores `@glowc//toolchains/arm:cortex-m0`, `cortex-m4` and `cortex-m7`, `cortex-m33`, `cortex-m55`), none when it is the host's CPU; a `-target` in `options` also wins. `nvptx64-nvidia-cuda` makes a CUDA bundle (PTX for `cpu`, default `sm_80`; the object for the target platform, and `@glowc//runtime:glowc_runtime_cuda` linked with it: `glow_instance_create_cuda`).",
        ),
        "cpu": attr.string(
            doc = "The target CPU (`-mcpu=`). Default: `baseline`, the triple's portable baseline (x86-64-v2, generic Armv8-A, Armv7-A with NEON, RV64GC), and on a platform with an Arm core (`@glowc//toolchains/arm:cortex-m4`, ...) that core: an action's output must not depend on the machine that runs it, or a remote cache would hand one machine's bundle to another. `native` gives the build machine's CPU (fastest there; keep such bundles out of shared caches), or name one (`znver4`, `neoverse-n1`). A `-mcpu` in `options` also wins.",
            default = "baseline",
        ),
        "num_threads": attr.int(
            doc = "`-num-threads=`: the bundle splits its convolution and matrix-product steps into this many parts, run by the thread pool of `@glowc//runtime:glowc_runtime_threads` when the program links it (on the calling thread otherwise). Outputs are the same bits for any value.",
            default = 1,
        ),
        "ram_size": attr.string(
            doc = "`-ram-size=`: the board's RAM the bundle may use, in bytes or with K, M or G (1024 bytes, ...), e.g. `192K`. The action fails, naming each part (activations, mutable and constant weights, the entry point's measured stack) and what to change, when the bundle needs more.",
        ),
        "flash_size": attr.string(
            doc = "`-flash-size=`: the board's flash the bundle may use (as `ram_size`); the action fails when the object's code and read-only data and the constant weights need more.",
        ),
        "model_inputs": attr.string_list(
            doc = "Input declarations `<name>,<type>,[d0,d1,...]`, each passed as `-model-input=`.",
        ),
        "options": attr.string_list(
            doc = "Further model-compiler options, passed unchanged (e.g. `-mcpu=skylake-avx512`).",
        ),
        "_cpus": attr.label_list(
            doc = "The CPU constraints the target triple is chosen by.",
            default = ["@platforms//cpu:" + cpu for cpu in _TRIPLES],
            providers = [platform_common.ConstraintValueInfo],
        ),
        "_arm_cores": attr.label_list(
            doc = "The Arm cores (@glowc//toolchains/arm:core) the triple and -mcpu of a bare-metal platform are chosen by.",
            default = ["//toolchains/arm:" + core for core in _ARM_CORES],
            providers = [platform_common.ConstraintValueInfo],
        ),
        "_host_cpu": attr.label(
            doc = "The CPU of the machine running Bazel (@local_config_platform): a target platform with it is not a cross build.",
            default = _HOST_CPU[0] if _HOST_CPU else None,
            providers = [platform_common.ConstraintValueInfo],
        ),
        "_compiler": attr.label(
            doc = "The model compiler, built for the execution platform.",
            default = "//compiler/driver:model-compiler",
            executable = True,
            cfg = "exec",
        ),
        "_runtime_cuda": attr.label(
            doc = "What a CUDA bundle links: glow_instance_create_cuda and the CUDA driver loaded at run time.",
            default = "//runtime:glowc_runtime_cuda",
            providers = [CcInfo],
        ),
        "_cc_toolchain": attr.label(
            doc = "The C++ toolchain, for CcInfo.",
            default = "@bazel_tools//tools/cpp:current_cc_toolchain",
        ),
    }),
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    incompatible_use_toolchain_transition = True,
)
