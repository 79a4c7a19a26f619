#!/usr/bin/env bash
# A workspace outside the source tree (created here, in a temporary folder) that
# local_repository()s glowc, compiles examples/digits/digits.onnx with
# @glowc//bazel:defs.bzl's glow_bundle and builds and runs a cc_binary using it.
#   external-workspace.sh [source-dir]
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/bazel/common.sh"
ws=$(mktemp -d "${TMPDIR:-/tmp}/glowc-consumer.XXXXXX")
trap 'bz shutdown >/dev/null 2>&1 || true; rm -rf "$ws"' EXIT

mkdir -p "$ws/app"
cat >"$ws/WORKSPACE" <<EOT
workspace(name = "consumer")

local_repository(name = "glowc", path = "$src")

# What glowc's own WORKSPACE defines, which a consumer repeats (Bazel 4 has no
# transitive workspace dependencies): rules_java and rules_cc offline, the host LLVM.
local_repository(name = "rules_java", path = "/usr/share/bazel/rules/java")
local_repository(name = "rules_cc", path = "$src/third_party/rules_cc")
new_local_repository(name = "llvm", build_file = "@glowc//bazel:llvm.BUILD", path = "/usr/lib/llvm-19")
EOT
cp "$src/examples/digits/digits.onnx" "$src/examples/digits/main.c" "$src/examples/digits/samples.h" "$ws/app/"
cat >"$ws/app/BUILD" <<'EOT'
load("@glowc//bazel:defs.bzl", "glow_bundle")
load("@rules_cc//cc:defs.bzl", "cc_binary")

glow_bundle(
    name = "net",
    model = "digits.onnx",
    network_name = "digits",
)

cc_binary(
    name = "classify",
    srcs = ["main.c", "samples.h"],
    deps = [":net", "@glowc//runtime:glowc_runtime"],
)
EOT

cd "$ws"
bz build "${bz_build_flags[@]}" //app:classify
bin=$(bz info "${bz_build_flags[@]}" bazel-bin)
# The weights reach the binary as runfiles of the bundle.
out=$("$bin/app/classify" "$bin/app/classify.runfiles/consumer/app/net.bundle/digits.weights.bin")
check_predictions "$out" "$src/examples/digits/expected.txt"
