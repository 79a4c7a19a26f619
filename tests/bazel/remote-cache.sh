#!/usr/bin/env bash
# Bazel's HTTP remote cache, served by nginx (WebDAV PUT) on loopback: builds the
# digits example into one output base, then into a fresh one; every model-compile
# (GlowBundle) action of the second build must be a remote cache hit.
#   remote-cache.sh [source-dir]
#   GLOWC_KEEP_REMOTE_CACHE_DIR=1 keeps the logs and cache (and leaves nginx running).
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/bazel/common.sh"
. "$src/tests/bazel/nginx.sh"

dir=$(mktemp -d "${TMPDIR:-/tmp}/glowc-remote-cache.XXXXXX")
roots=()
cleanup() {
  [ -n "${GLOWC_KEEP_REMOTE_CACHE_DIR-}" ] && { echo "kept $dir"; return; }
  for r in "${roots[@]}"; do bazel --output_user_root="$r" shutdown >/dev/null 2>&1 || true; done
  nginx_stop "$dir" || true
  chmod -R u+w "$dir" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

nginx_start "$dir"
port=$nginx_port

# build <n>: the example into a fresh output root, through the remote cache only.
build() {
  local root=$dir/root$1 start
  roots+=("$root")
  start=$(date +%s.%N)
  (cd "$src" && bazel --output_user_root="$root" --max_idle_secs=30 build --symlink_prefix=/ --color=no --curses=no \
    --noshow_progress --remote_cache="http://127.0.0.1:$port" --execution_log_json_file="$dir/exec$1.json" \
    //examples/digits:digits-classify) >"$dir/build$1.log" 2>&1 || { cat "$dir/build$1.log" >&2; return 1; }
  echo "build $1: $(python3 -c "print('%.1f' % ($(date +%s.%N) - $start))") s; $(grep -o '[0-9]* processes: .*' "$dir/build$1.log" | head -1)"
}
build 1
build 2

# Count the GlowBundle actions of the second build and their remote cache hits.
read -r total hits < <(python3 "$src/tests/bazel/exec-log.py" "$dir/exec2.json" GlowBundle)
echo "GlowBundle actions in the second build: $total, remote cache hits: $hits"
[ "$total" -gt 0 ] && [ "$total" -eq "$hits" ]
bin=$(cd "$src" && bazel --output_user_root="$dir/root2" info --symlink_prefix=/ --remote_cache="http://127.0.0.1:$port" bazel-bin 2>/dev/null)
out=$("$bin/examples/digits/digits-classify" "$bin/examples/digits/digits_bundle.bundle/digits.weights.bin")
check_predictions "$out" "$src/examples/digits/expected.txt"
