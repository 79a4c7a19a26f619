"""glow_profile: a quantization profile, made at build time by model-profiler."""

load(":plugins.bzl", "PLUGIN_ATTRS", "add_plugin_args")

def _path(f):
    return f.path

def _glow_profile_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".yml")
    files = sorted(ctx.files.dataset, key = _path)
    if not files:
        fail("dataset has no files", "dataset")

    # Glow's list form of -input-dataset: one path a line, in this (sorted) order,
    # which the histograms depend on.
    listing = ctx.actions.declare_file(ctx.label.name + ".dataset.txt")
    ctx.actions.write(listing, "".join([f.path + "\n" for f in files]))
    args = ctx.actions.args()
    args.add(ctx.file.model, format = "-model=%s")
    args.add("%s,%s,file,%s" % (ctx.attr.input_name, ctx.attr.kind, listing.path), format = "-input-dataset=%s")
    args.add(out, format = "-dump-profile=%s")
    plugins = add_plugin_args(ctx, args)
    args.add_all(ctx.attr.options)
    ctx.actions.run(
        executable = ctx.executable._profiler,
        arguments = [args],
        inputs = [ctx.file.model, listing] + files + plugins,
        outputs = [out],
        mnemonic = "GlowProfile",
        progress_message = "Profiling %s over %d samples (%s)" % (ctx.file.model.short_path, len(files), ctx.label),
    )
    return [DefaultInfo(files = depset([out]))]

glow_profile = rule(
    implementation = _glow_profile_impl,
    doc = """A quantization profile of `model` over calibration data, in Glow's YAML format.

`dataset` holds one tensor per file (raw little-endian bytes with `kind = "rawbin"`,
numbers with `rawtxt`, or `.npy`) for the model input `input_name`; files are taken in
path order. Pass the target as `glow_bundle(profile = ...)` to quantize a bundle to
int8. Editing a calibration file re-profiles; nothing else does.""",
    attrs = dict(PLUGIN_ATTRS, **{
        "model": attr.label(
            doc = "The model: an ONNX file or a TFLite file (`.tflite`).",
            allow_single_file = [".onnx", ".tflite"],
            mandatory = True,
        ),
        "dataset": attr.label_list(
            doc = "Calibration samples, one tensor per file.",
            allow_files = True,
            mandatory = True,
        ),
        "input_name": attr.string(
            doc = "The model input the samples feed.",
            mandatory = True,
        ),
        "kind": attr.string(
            doc = "`rawbin` (the default) or `rawtxt`.",
            default = "rawbin",
            values = ["rawbin", "rawtxt"],
        ),
        "options": attr.string_list(
            doc = "More model-profiler options.",
        ),
        "_profiler": attr.label(
            doc = "model-profiler, built for the execution platform.",
            default = "//compiler/driver:model-profiler",
            executable = True,
            cfg = "exec",
        ),
    }),
)
