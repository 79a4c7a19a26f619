#!/usr/bin/env bash
# Bazel's HTTP remote cache, served by nginx (WebDAV PUT) on loopback: builds the
# digits example into one output base, then into a fresh one; every model-compile
# (GlowBundle) action of the second build must be a remote cache hit.
# The first build also fills the Bazel tests' shared disk cache (it runs first: the
# fixture glowc-bazel-disk-cache), so that theirs are hits rather than a third and
# fourth build of the toolchain; it takes nothing from either cache
# (--noremote_accept_cached), so the server gets every result whatever the disk held.
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

# build <n> [flags]: the example into a fresh output root, through the remote cache.
build() {
  local n=$1 root=$dir/root$1 start
  shift
  roots+=("$root")
  start=$(date +%s.%N)
  (cd "$src" && bazel --output_user_root="$root" --max_idle_secs=30 build --symlink_prefix=/ --color=no --curses=no \
    --noshow_progress --remote_cache="http://127.0.0.1:$port" --execution_log_json_file="$dir/exec$n.json" "$@" \
    //examples/digits:digits-classify) >"$dir/build$n.log" 2>&1 || { cat "$dir/build$n.log" >&2; return 1; }
  echo "build $n: $(python3 -c "print('%.1f' % ($(date +%s.%N) - $start))") s; $(grep -o '[0-9]* processes: .*' "$dir/build$n.log" | head -1)"
}
build 1 --disk_cache="$bazel_root/disk-cache" --noremote_accept_cached
if grep -q 'cache hit' "$dir/build1.log"; then
  echo "the first build took results from a cache: $(grep -o '[0-9]* processes: .*' "$dir/build1.log")" >&2
  exit 1
fi
build 2

# Count the GlowBundle actions of the second build and their remote cache hits.
read -r total hits < <(python3 "$src/tests/bazel/exec-log.py" "$dir/exec2.json" GlowBundle)
echo "GlowBundle actions in the second build: $total, remote cache hits: $hits"
[ "$total" -gt 0 ] && [ "$total" -eq "$hits" ]
bin=$(cd "$src" && bazel --output_user_root="$dir/root2" info --symlink_prefix=/ --remote_cache="http://127.0.0.1:$port" bazel-bin 2>/dev/null)
out=$("$bin/examples/digits/digits-classify" "$bin/examples/digits/digits_bundle.bundle/digits.weights.bin")
check_predictions "$out" "$src/examples/digits/expected.txt"
