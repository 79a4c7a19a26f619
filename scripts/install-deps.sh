#!/usr/bin/env bash
# Installs everything glowc needs to build and test on a fresh Debian 12 (run as root).
# Idempotent and cheap when all is already there.
#   install-deps.sh               what building glowc and running its tests needs
#   install-deps.sh --build-only  only what building glowc needs (no Python, Node, ORT)
#   GLOWC_ORT_DIR  where onnxruntime-node goes (default $HOME/.cache/glowc/ort)
set -euo pipefail

build_only=0
case "${1-}" in
  "") ;;
  --build-only) build_only=1 ;;
  *) echo "usage: install-deps.sh [--build-only]" >&2; exit 2 ;;
esac

packages=(
  cmake ninja-build gcc g++ make pkg-config
  llvm-19-dev clang-19 lld-19
  protobuf-c-compiler libprotobuf-c-dev libyaml-dev libzstd-dev libxxhash-dev
  nettle-dev # SHA-256 (cache keys, cache entries)
  libcurl4-openssl-dev # the remote compile cache (http and https)
  libpng-dev # image-classifier reads PNG images
)
# Cross toolchains for the examples and the `cross` tests: AArch64 and RISC-V
# Linux (Debian's cross gcc, run under qemu-user) and Cortex-M (arm-none-eabi,
# run under qemu-system-arm).
cross_packages=(
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user
  gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
)
if [ "$build_only" -eq 0 ]; then
  packages+=("${cross_packages[@]}")
  packages+=(python3-numpy python3-onnx python3-torch python3-torchvision python3-sklearn)
  # tests/glow-examples: its photos are scikit-learn's sample images (read with Pillow) and SciPy's face.
  packages+=(python3-pil python3-scipy)
  # tests/glow-debug: gdb breaks in a -g bundle's steps.
  packages+=(gdb)
  # tests/caffe2: Caffe2 NetDefs written from message classes made of caffe2.proto (python3-onnx has it too).
  packages+=(python3-protobuf)
  # Sanitizers and libFuzzer for clang (the `sanitize` tests: an ASan+UBSan build, the fuzzers).
  packages+=(libclang-rt-19-dev)
  # The zstd command line tool: the packed-weights tests and bench compare with plain `zstd -19`.
  packages+=(zstd)
  # The Bazel build and its tests (Bazel 4.2.3, offline; see ENVIRONMENT.md).
  packages+=(bazel-bootstrap bazel-rules-java)
  # The `distributed` test's Remote Execution API server: Bazel's reference worker, compiled
  # from these sources against bazel-bootstrap's jar (whose default-jdk-headless brings javac).
  packages+=(bazel-bootstrap-source)
  # A WebDAV server on loopback as the remote cache in the Bazel cache test, and over https (test
  # certificates made by the openssl tool) in integration.remote-cache-nginx.
  packages+=(nginx-extras openssl)
  # tests/tflite: Arm NN's TfLite parser on its CpuRef backend runs the models the tests write
  # with the Python that flatc makes of the importer's schema.
  packages+=(python3-pyarmnn libarmnn-cpuref-backend22 libarmnntfliteparser22 python3-flatbuffers flatbuffers-compiler)
  # A node from elsewhere (e.g. NodeSource, which bundles npm and conflicts with
  # Debian's npm package) is kept; only a machine without one gets Debian's.
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: apt packages: all ${#packages[@]} already installed"
else
  echo "install-deps: apt-get update"
  apt-get update -qq
  echo "install-deps: apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "$build_only" -eq 1 ]; then
  echo "install-deps: done (build only)"
  exit 0
fi

ort_version=1.30.0
ort_dir=${GLOWC_ORT_DIR:-$HOME/.cache/glowc/ort}
ort_pkg=$ort_dir/node_modules/onnxruntime-node/package.json
if [ -f "$ort_pkg" ] && grep -q "\"version\": \"$ort_version\"" "$ort_pkg"; then
  echo "install-deps: onnxruntime-node@$ort_version: already in $ort_dir"
else
  echo "install-deps: npm install onnxruntime-node@$ort_version into $ort_dir"
  mkdir -p "$ort_dir"
  # The package's install script downloads GPU binaries and fails offline; the
  # CPU library for linux-x64 is inside the package, so scripts are skipped.
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error --save-exact \
    --prefix "$ort_dir" "onnxruntime-node@$ort_version"
fi

echo "install-deps: checking onnxruntime-node loads"
GLOWC_ORT_DIR=$ort_dir node -e '
  const ort = require(require("path").join(process.env.GLOWC_ORT_DIR, "node_modules", "onnxruntime-node"));
  if (typeof ort.InferenceSession !== "function") process.exit(1);'
echo "install-deps: done"
