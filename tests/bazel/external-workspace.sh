#!/usr/bin/env bash
# A workspace outside the source tree (created here, in a temporary folder) that
# local_repository()s glowc, compiles examples/digits/digits.onnx with
# @glowc//bazel:defs.bzl's glow_bundle and builds and runs a cc_binary using it;
# then a .tflite model (tests/tflite-model/make-model.py's, written here with flatc's
# Python package; left out, saying so, without flatc) as glow_bundle and glow_profile
# models: float and int8 programs print y as numpy computes it.
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
# Without the argument, the program finds them there itself (the consumer workspace's name in
# GLOW_RUNFILE_digits_weights_bin).
check_predictions "$(bz run "${bz_build_flags[@]}" //app:classify 2>/dev/null)" "$src/examples/digits/expected.txt"

if ! /usr/bin/python3 "$src/tests/tflite-model/make-model.py" "$(command -v flatc || echo flatc)" \
       "$src/compiler/importer/tflite.fbs" "$ws/tfl-model" >/dev/null; then
  echo "the .tflite part left out: no flatc or Python flatbuffers"
  exit 0
fi
mkdir -p "$ws/tfl"
cp "$ws/tfl-model/tiny.tflite" "$ws/tfl-model/x.txt" "$src/tests/cmake/tflite/run-tiny.c" "$ws/tfl/"
cat >"$ws/tfl/BUILD" <<'EOT'
load("@glowc//bazel:defs.bzl", "glow_bundle", "glow_profile")
load("@rules_cc//cc:defs.bzl", "cc_binary")

glow_bundle(name = "tiny", model = "tiny.tflite")

glow_profile(name = "tiny_profile", model = "tiny.tflite", dataset = ["x.txt"], input_name = "x", kind = "rawtxt")

glow_bundle(name = "tiny_int8", model = "tiny.tflite", network_name = "tiny", profile = ":tiny_profile")

cc_binary(name = "run-tiny", srcs = ["run-tiny.c"], deps = [":tiny", "@glowc//runtime:glowc_runtime"])

cc_binary(name = "run-tiny-int8", srcs = ["run-tiny.c"], deps = [":tiny_int8", "@glowc//runtime:glowc_runtime"])
EOT
bz build "${bz_build_flags[@]}" //tfl:run-tiny //tfl:run-tiny-int8
want=$(cat "$ws/tfl-model/expected.txt")
for prog in "run-tiny tiny 1e-6" "run-tiny-int8 tiny_int8 0.11"; do
  read -r exe bundle tol <<<"$prog"
  got=$("$bin/tfl/$exe" "$bin/tfl/$bundle.bundle/tiny.weights.bin" $(cat "$ws/tfl-model/x.txt"))
  echo "$exe: $got (numpy: $want)"
  /usr/bin/python3 -c 'import sys; g, w = (list(map(float, a.split())) for a in sys.argv[1:3])
sys.exit(not (len(g) == len(w) and max(abs(a - b) for a, b in zip(g, w)) <= float(sys.argv[3])))' \
    "$got" "$want" "$tol" || { echo "$exe: y differs from numpy's"; exit 1; }
done
