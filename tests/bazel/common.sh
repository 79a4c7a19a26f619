# Shared by the Bazel tests (sourced): the bazel command with the startup options
# every test uses, and the check of the digits example's predictions.
#   GLOWC_BAZEL_ROOT  Bazel's --output_user_root (default: a folder under $TMPDIR);
#                     the CMake tests share one under the build tree, so the
#                     toolchain is built once for all of them.
command -v bazel >/dev/null || { echo "bazel not found (apt-get install bazel-bootstrap bazel-rules-java)" >&2; exit 1; }
bazel_root=${GLOWC_BAZEL_ROOT:-${TMPDIR:-/tmp}/glowc-bazel-root}
mkdir -p "$bazel_root"
# The server exits soon after the test; no convenience symlinks in the source tree.
bz() { bazel --output_user_root="$bazel_root" --max_idle_secs=30 "$@"; }
# The disk cache lets the tests (each its own workspace, so its own output base)
# share the toolchain build; the process-wrapper sandbox as in .bazelrc (an external
# workspace has not got glowc's).
bz_build_flags=(--symlink_prefix=/ --color=no --curses=no --noshow_progress --disk_cache="$bazel_root/disk-cache"
  --spawn_strategy=processwrapper-sandbox)

# check_predictions <output of digits-classify> <expected.txt>
check_predictions() {
  local out=$1 expected=$2 i=0 want
  while read -r want; do
    if ! grep -q "^sample $i: predicted $want " <<<"$out"; then
      echo "sample $i: expected prediction $want; output was:" >&2
      echo "$out" >&2
      return 1
    fi
    i=$((i + 1))
  done <"$expected"
  echo "all $i predictions match ONNX Runtime's"
}
