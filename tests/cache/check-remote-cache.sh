#!/usr/bin/env bash
# The remote compile cache (-remote-cache): against a GET/PUT server on
# loopback, a first compile stores the entry; with the local cache cleared, a
# compile into a fresh directory is a remote hit with identical files (and
# fills the local cache); a dead server is a warning and a compile, not a failure.
#   check-remote-cache.sh <model-compiler> <model.onnx> <cache-server.py> [extra options...]
set -eu
mc=$1
model=$2
server=$3
shift 3
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$work/store"
python3 "$server" "$work/store" "$work/port" 120 2>"$work/server.log" &
pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || fail "the cache server did not start"
url=http://127.0.0.1:$(cat "$work/port")/glowc

compile() {
  local out=$1
  shift
  mkdir -p "$out"
  "$mc" -model="$model" -emit-bundle="$out" -network-name=net -verbose "$@" >"$out.log" 2>&1 ||
    { cat "$out.log"; fail "compile into $out failed"; }
}
same() {
  for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || fail "$(basename "$f") differs"; done
  [ "$(ls "$1" | wc -l)" = "$(ls "$2" | wc -l)" ] || fail "file sets differ"
}

compile "$work/first" -cache-dir="$work/local" -remote-cache="$url" "$@"
grep -q "nodes after optimization" "$work/first.log" || fail "first compile should compile"
[ "$(ls "$work/store" | wc -l)" = 1 ] || { cat "$work/server.log"; fail "nothing stored on the server"; }
echo "stored remotely: $(ls "$work/store")"

rm -rf "$work/local"
compile "$work/second" -cache-dir="$work/local" -remote-cache="$url" "$@"
grep -q "^glowc: cache hit .*$url" "$work/second.log" || { cat "$work/second.log"; fail "expected a remote hit"; }
! grep -q "nodes after optimization" "$work/second.log" || fail "a remote hit must not compile"
same "$work/first" "$work/second"
[ "$(find "$work/local" -type f | wc -l)" = 1 ] || fail "a remote hit should fill the local cache"
echo "remote hit: identical bundle, no compilation, local cache filled"

compile "$work/third" -remote-cache="$url" "$@"
grep -q "^glowc: cache hit" "$work/third.log" || fail "expected a remote hit without a local cache"
same "$work/first" "$work/third"

# A corrupted remote entry is never used.
entry=$(ls "$work/store")
printf '\x5a' | dd of="$work/store/$entry" bs=1 seek=5000 conv=notrunc status=none
compile "$work/corrupt" -remote-cache="$url" "$@"
grep -q "warning: corrupted cache entry" "$work/corrupt.log" || { cat "$work/corrupt.log"; fail "corrupt remote entry not reported"; }
grep -q "nodes after optimization" "$work/corrupt.log" || fail "corrupt remote entry used"
same "$work/first" "$work/corrupt"
echo "corrupted remote entry: detected, recompiled (and stored again)"

kill "$pid"
wait "$pid" 2>/dev/null || true
pid=
compile "$work/down" -remote-cache="$url" "$@"
grep -q "warning: remote cache" "$work/down.log" || { cat "$work/down.log"; fail "no warning for a dead server"; }
same "$work/first" "$work/down"
echo "server down: warning, compiled, identical bundle"
echo "PASS"
