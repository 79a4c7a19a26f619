"""The graph-pass plugin attributes glow_bundle and glow_profile share."""

PLUGIN_ATTRS = {
    "pass_plugins": attr.label_list(
        doc = "Graph-pass plugins (`-load-pass=`), in load order: shared libraries, e.g. `cc_binary(name = \"libmine.so\", linkshared = True, deps = [\"@glowc//compiler:glowc_pass_plugin\"])`. They run inside the compiler, so they are built for the execution platform. A rebuilt plugin recompiles the bundle.",
        allow_files = [".so"],
        cfg = "exec",
    ),
    "passes": attr.string_list(
        doc = "The plugin passes that run, in order (`-pass=`); empty: every pass the plugins register.",
    ),
}

def add_plugin_args(ctx, args):
    """Adds -load-pass and -pass to args; returns the plugin files, inputs of the action."""
    if ctx.attr.passes and not ctx.files.pass_plugins:
        fail("passes needs the pass_plugins that register them", "passes")
    args.add_all(ctx.files.pass_plugins, format_each = "-load-pass=%s")
    if ctx.attr.passes:
        args.add(",".join(ctx.attr.passes), format = "-pass=%s")
    return ctx.files.pass_plugins
