"""glow_kernels(): kernel bitcode for one target, embedded as C (targets/CMakeLists.txt's steps)."""

# The flags targets/CMakeLists.txt gives clang for kernel bitcode; keep the two in step.
_KERNEL_CFLAGS = [
    "-std=c11",
    "-O2",
    "-Xclang",
    "-disable-llvm-passes",
    "-ffreestanding",
    "-fno-strict-aliasing",
    "-fno-math-errno",
    "-fno-stack-protector",
    "-fno-exceptions",
    "-fno-unwind-tables",
    "-fno-asynchronous-unwind-tables",
    "-ffp-contract=on",
    "-Wall",
    "-Wextra",
    "-Werror",
]

_CLANG = "/usr/lib/llvm-19/bin/clang"
_LLVM_LINK = "/usr/lib/llvm-19/bin/llvm-link"

def glow_kernels(name, target, triple, srcs, hdrs, cflags = [], bin2c = ":glowc-bin2c"):
    """Compiles `srcs` (relative to this package) to bitcode, links them and writes `name`.c.

    Args:
      name: the generated C file is `name`.c, defining glow_kernels_<target>.
      target: the target folder (e.g. x86_64), searched before common/ for includes.
      triple: clang's --target.
      srcs: kernel sources, paths relative to this package.
      hdrs: headers the kernels may include.
      cflags: the target's extra flags (GLOWC_TARGET_CFLAGS).
      bin2c: the bin2c tool.
    """
    root = native.repository_name()
    pkg = native.package_name()
    base = (("external/" + root[1:] + "/") if root != "@" else "") + pkg
    bcs = []
    for src in srcs:
        bc = "%s/%s.bc" % (target, src.replace("/", "_").replace(".c", ""))
        native.genrule(
            name = "%s_%s" % (name, src.replace("/", "_").replace(".", "_").replace("-", "_")),
            srcs = [src] + hdrs,
            outs = [bc],
            cmd = " ".join([_CLANG, "--target=" + triple] + cflags + _KERNEL_CFLAGS + [
                "-I%s/%s" % (base, target),
                "-I%s/common" % base,
                "-emit-llvm -c $(location %s) -o $@" % src,
            ]),
            message = "Kernel bitcode %s/%s" % (target, src),
        )
        bcs.append(bc)
    native.genrule(
        name = name + "_bc",
        srcs = bcs,
        outs = ["kernels-%s.bc" % target],
        cmd = _LLVM_LINK + " -o $@ $(SRCS)",
        message = "Linking kernel bitcode for " + target,
    )
    native.genrule(
        name = name,
        srcs = ["kernels-%s.bc" % target],
        outs = [name + ".c"],
        cmd = "$(location %s) $< $@ glow_kernels_%s" % (bin2c, target),
        tools = [bin2c],
    )

def glow_host_code(name, arch, triple, src, hdrs, bin2c = ":glowc-bin2c"):
    """A GPU target's host code (targets/cuda/launch.c) as bitcode for one host, embedded as C.

    Args:
      name: the generated C file is `name`.c, defining glow_cuda_host_<arch>.
      arch: the host architecture (x86_64, aarch64).
      triple: clang's --target.
      src: the host code, relative to this package.
      hdrs: headers it includes.
      bin2c: the bin2c tool.
    """
    root = native.repository_name()
    prefix = ("external/" + root[1:] + "/") if root != "@" else ""
    bc = "cuda/host-%s.bc" % arch
    native.genrule(
        name = name + "_bc",
        srcs = [src] + hdrs,
        outs = [bc],
        cmd = " ".join([_CLANG, "--target=" + triple] + _KERNEL_CFLAGS + [
            "-I%sruntime" % prefix,
            "-emit-llvm -c $(location %s) -o $@" % src,
        ]),
        message = "CUDA bundle host code for " + arch,
    )
    native.genrule(
        name = name,
        srcs = [bc],
        outs = [name + ".c"],
        cmd = "$(location %s) $< $@ glow_cuda_host_%s" % (bin2c, arch),
        tools = [bin2c],
    )
