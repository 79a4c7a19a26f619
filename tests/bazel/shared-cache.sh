#!/usr/bin/env bash
# One HTTP cache server for Bazel and CMake builds (issue 25, item 4): ONE nginx (WebDAV PUT) on
# loopback is Bazel's --remote_cache under /bazel and model-compiler's -remote-cache under /glowc.
#   Bazel: in the shared output base, the digits bundle's outputs deleted and rebuilt with the
#     remote cache only (no disk cache): the first rebuild runs GlowBundle and uploads it, the
#     second takes it from the server (a remote cache hit in the execution log); same bytes each time.
#   CMake: tests/cmake/consumer, configured twice in two folders against the installed package,
#     add_glow_bundle(OPTIONS -verbose -remote-cache=.../glowc): the first clean build compiles and
#     stores the bundle, the second takes it from the server ("glowc: cache hit ... /glowc"),
#     byte-identical, and its program predicts right.
#   Then the server's folders: /bazel holds only ac/ and cas/ (each CAS file named by its SHA-256),
#   /glowc only the one compile cache entry, and every request went to one of the two prefixes.
#   nginx is stopped by its PID, also on failure, and no process of it is left.
#   shared-cache.sh <source-dir> <installed glowc prefix (tests/cmake's install fixture)>
set -euo pipefail
src=$1
prefix=$2
. "$src/tests/bazel/common.sh"
. "$src/tests/bazel/nginx.sh"
[ -f "$prefix/lib/cmake/glowc/glowcConfig.cmake" ] || { echo "no installed glowc in $prefix (run integration.cmake-install)" >&2; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/glowc-shared-cache.XXXXXX")
cleanup() {
  (cd "$src" && bz shutdown >/dev/null 2>&1) || true
  nginx_stop "$dir" || true
  chmod -R u+w "$dir" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
elapsed() { python3 -c "print('%.1f' % ($(date +%s.%N) - $1))"; }

nginx_start "$dir"
url=http://127.0.0.1:$nginx_port
echo "nginx (PID $nginx_pid) on $url: Bazel under $url/bazel, model-compiler under $url/glowc"

# --- Bazel ---------------------------------------------------------------------------------------
cd "$src"
target=//examples/digits:digits_bundle
# The toolchain and the bundle as the other Bazel tests build them (shared output root, disk cache).
start=$(date +%s.%N)
bz build "${bz_build_flags[@]}" "$target" >"$dir/bazel-warm.log" 2>&1 || { cat "$dir/bazel-warm.log" >&2; fail "bazel build $target"; }
echo "bazel: $target built locally in $(elapsed "$start") s"
bundle=$(bz info "${bz_build_flags[@]}" bazel-bin 2>/dev/null)/examples/digits/digits_bundle.bundle
mkdir -p "$dir/bazel-0"
cp "$bundle"/digits.* "$dir/bazel-0/"

# The remote cache only: no --disk_cache, so a hit can only come from the server.
remote_flags=(--symlink_prefix=/ --color=no --curses=no --noshow_progress
  --spawn_strategy=processwrapper-sandbox --remote_cache="$url/bazel")
# rebuild <n>: the bundle's outputs deleted (Bazel notices and runs their actions again, asking
# the remote cache first), then built; the execution log says which spawns were hits.
rebuild() {
  local start
  chmod -R u+w "$bundle"
  rm -f "$bundle"/*
  start=$(date +%s.%N)
  bz build "${remote_flags[@]}" --execution_log_json_file="$dir/exec$1.json" "$target" >"$dir/bazel$1.log" 2>&1 ||
    { cat "$dir/bazel$1.log" >&2; fail "bazel build $target with --remote_cache"; }
  read -r total hits < <(python3 "$src/tests/bazel/exec-log.py" "$dir/exec$1.json" GlowBundle)
  echo "bazel rebuild $1: $(elapsed "$start") s; GlowBundle actions $total, remote cache hits $hits;" \
    "$(grep -o '[0-9]* processes: .*' "$dir/bazel$1.log" | head -1)"
  [ "$total" = 1 ] || fail "rebuild $1: expected 1 GlowBundle action, the execution log has $total"
  mkdir -p "$dir/bazel-$1"
  cp "$bundle"/digits.* "$dir/bazel-$1/"
  for f in "$dir/bazel-0"/*; do
    cmp "$f" "$dir/bazel-$1/$(basename "$f")" || fail "rebuild $1: $(basename "$f") differs from the local build's"
  done
}
rebuild 1
[ "$hits" = 0 ] || fail "the first rebuild hit an empty cache"
grep -Eq '"PUT /bazel/ac/[0-9a-f]{64} HTTP/1.1" 20[14]' "$dir/access.log" || fail "Bazel stored no action result under /bazel/ac"
rebuild 2
[ "$hits" = 1 ] || fail "the second rebuild did not take GlowBundle from the remote cache"
grep -Eq '"GET /bazel/ac/[0-9a-f]{64} HTTP/1.1" 200' "$dir/access.log" || fail "no action result was read from /bazel/ac"
echo "bazel: the bundle from $url/bazel, byte-identical to the local build's"

# --- CMake ---------------------------------------------------------------------------------------
# Two clean builds of one project in two folders, as on two machines: no local compile cache.
unset GLOWC_CACHE_DIR
cmake_build() { # <tree>: configure tests/cmake/consumer and build its program; the output in <tree>.log
  local tree=$dir/$1 start
  start=$(date +%s.%N)
  cmake -S "$src/tests/cmake/consumer" -B "$tree" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DDIGITS_DIR="$src/examples/digits" "-DBUNDLE_OPTIONS=-verbose;-remote-cache=$url/glowc" >"$tree.log" 2>&1 &&
    cmake --build "$tree" --target classify >>"$tree.log" 2>&1 || { cat "$tree.log" >&2; fail "CMake build in $tree"; }
  echo "cmake $1: clean build $(elapsed "$start") s; $(grep -o 'glowc: cache [a-z]* [0-9a-f]*.*' "$tree.log" | head -1)"
}
cmake_build cmake-a
grep -q "nodes after optimization" "$dir/cmake-a.log" || fail "the first CMake build did not compile the bundle"
key=$(grep -o 'glowc: cache miss [0-9a-f]*' "$dir/cmake-a.log" | awk '{print $4}')
[ -n "$key" ] || fail "the first CMake build's compile printed no cache key"
grep -q "\"PUT /glowc/$key HTTP/1.1\" 201" "$dir/access.log" || fail "model-compiler did not store $key under /glowc"
grep -q "warning: remote cache" "$dir/cmake-a.log" && fail "a remote cache warning in the first build"

cmake_build cmake-b
grep -q "^glowc: cache hit $key ($url/glowc," "$dir/cmake-b.log" || fail "the second CMake build did not get $key from $url/glowc"
grep -q "nodes after optimization" "$dir/cmake-b.log" && fail "the second CMake build compiled the bundle"
grep -q "\"GET /glowc/$key HTTP/1.1\" 200" "$dir/access.log" || fail "no GET of /glowc/$key in nginx's log"
for f in "$dir/cmake-a/digits.bundle"/*; do
  cmp "$f" "$dir/cmake-b/digits.bundle/$(basename "$f")" || fail "$(basename "$f") differs between the two CMake builds"
done
cmake -DEXE="$dir/cmake-b/classify" -DWEIGHTS="$dir/cmake-b/digits.bundle/digits.weights.bin" \
  -DEXPECTED="$src/examples/digits/expected.txt" -P "$src/examples/digits/check-predictions.cmake"
echo "cmake: the second clean build's bundle from $url/glowc, byte-identical, predictions right"

# --- The server's folders ------------------------------------------------------------------------
store=$dir/store
echo "server folders:"
(cd "$store" && find . -mindepth 1 -maxdepth 2 -type d | sort | sed 's/^/  /')
echo "  files: bazel/ac $(find "$store/bazel/ac" -type f | wc -l), bazel/cas $(find "$store/bazel/cas" -type f | wc -l)" \
  "($(du -sk "$store/bazel" | cut -f1) KiB); glowc $(find "$store/glowc" -type f | wc -l) ($(du -sk "$store/glowc" | cut -f1) KiB)"
[ "$(ls "$store")" = "$(printf 'bazel\nglowc')" ] || fail "the server's root holds more than bazel/ and glowc/: $(ls "$store")"
[ "$(ls "$store/bazel")" = "$(printf 'ac\ncas')" ] || fail "bazel/ holds more than ac/ and cas/: $(ls "$store/bazel")"
[ "$(find "$store/glowc" -mindepth 1)" = "$store/glowc/$key" ] ||
  fail "glowc/ should hold exactly the entry $key: $(find "$store/glowc" -mindepth 1)"
# Bazel's CAS is content-addressed: each file is named by its SHA-256 (none is a glowc entry).
for f in "$store"/bazel/cas/*; do
  [ "$(sha256sum "$f" | cut -c1-64)" = "$(basename "$f")" ] || fail "bazel/cas/$(basename "$f") is not named by its SHA-256"
done
[ -z "$(find "$store/bazel" -name "$key")" ] || fail "the glowc entry $key is under bazel/"
awk '{print $7}' "$dir/access.log" | grep -Ev '^/(bazel/(ac|cas)|glowc)/[0-9a-f]{64}$' &&
  fail "requests outside /bazel/{ac,cas} and /glowc (above)"
echo "requests: $(grep -c '"[A-Z]* /bazel/' "$dir/access.log") to /bazel, $(grep -c '"[A-Z]* /glowc/' "$dir/access.log") to /glowc"

# Stopped by its PID; nothing of it is left (the trap does the same on failure).
nginx_stop "$dir" || fail "nginx did not stop"
pgrep -f "$dir/nginx.conf" && fail "nginx processes left (above)"
echo "nginx stopped; no process left"
echo PASS
