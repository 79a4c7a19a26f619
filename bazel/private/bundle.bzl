"""glow_bundle: an ONNX model compiled into a bundle that cc_* rules link like a library."""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

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

def _glow_bundle_impl(ctx):
    name = ctx.attr.network_name or ctx.label.name
    if not (name[0].isalpha() or name[0] == "_") or not name.replace("_", "a").isalnum():
        fail("network_name '%s' is not a C identifier" % name, "network_name")

    # The compiler writes <dir>/<name>.*; the directory is per target so that two
    # bundles in one package may share a network name.
    obj = ctx.actions.declare_file("%s.bundle/%s.o" % (ctx.label.name, name))
    hdr = ctx.actions.declare_file("%s.bundle/%s.h" % (ctx.label.name, name))
    weights = [ctx.actions.declare_file("%s.bundle/%s.weights.bin" % (ctx.label.name, name))]
    if ctx.attr.bundle_api == "static":
        weights.append(ctx.actions.declare_file("%s.bundle/%s.weights.txt" % (ctx.label.name, name)))

    args = ctx.actions.args()
    args.add(ctx.file.model, format = "-model=%s")
    args.add(obj.dirname, format = "-emit-bundle=%s")
    args.add(name, format = "-network-name=%s")
    args.add(ctx.attr.bundle_api, format = "-bundle-api=%s")
    inputs = [ctx.file.model]
    if ctx.file.profile:
        args.add(ctx.file.profile, format = "-load-profile=%s")
        inputs.append(ctx.file.profile)
    if ctx.attr.weights != "bin":
        args.add(ctx.attr.weights, format = "-weights=%s")
    args.add_all(ctx.attr.model_inputs, format_each = "-model-input=%s")
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
    # With the static API, programs #include "<name>.weights.txt" as well.
    compilation_context = cc_common.create_compilation_context(
        headers = depset([hdr] + weights[1:]),
        includes = depset([hdr.dirname]),
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
        CcInfo(compilation_context = compilation_context, linking_context = linking_context),
        OutputGroupInfo(
            weights = depset(weights),
            header = depset([hdr]),
            object = depset([obj]),
        ),
    ]

glow_bundle = rule(
    implementation = _glow_bundle_impl,
    doc = """Compiles an ONNX model into a Glow bundle at build time.

`cc_binary(deps = [":<name>"])` links the bundle's object and can
`#include "<network_name>.h"`; the weights file(s) are outputs (output group
`weights`) and runfiles of the target, so a binary depending on it finds them
under its runfiles at `<package>/<name>.bundle/<network_name>.weights.bin`.
The bundle is compiled for the host; the triple will follow the target
platform once the toolchain has cross-compilation platforms.""",
    attrs = {
        "model": attr.label(
            doc = "The ONNX model. Editing it recompiles the bundle.",
            allow_single_file = [".onnx"],
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
            doc = "A quantization profile (`-load-profile`); it gains its meaning with quantization support.",
            allow_single_file = True,
        ),
        "weights": attr.string(
            doc = "The weights format: `bin` (the default), `txt`, `zst` or `embedded` (`-weights=`); formats other than `bin` gain their meaning with the weights work.",
            default = "bin",
            values = ["bin", "txt", "zst", "embedded"],
        ),
        "model_inputs": attr.string_list(
            doc = "Input declarations `<name>,<type>,[d0,d1,...]`, each passed as `-model-input=`.",
        ),
        "options": attr.string_list(
            doc = "Further model-compiler options, passed unchanged (e.g. `-mcpu=skylake-avx512`).",
        ),
        "_compiler": attr.label(
            doc = "The model compiler, built for the execution platform.",
            default = "//compiler/driver:model-compiler",
            executable = True,
            cfg = "exec",
        ),
        "_cc_toolchain": attr.label(
            doc = "The C++ toolchain, for CcInfo.",
            default = "@bazel_tools//tools/cpp:current_cc_toolchain",
        ),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    incompatible_use_toolchain_transition = True,
)
