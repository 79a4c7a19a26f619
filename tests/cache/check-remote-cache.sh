#!/usr/bin/env bash
# The remote compile cache (-remote-cache): against a GET/PUT server on
# loopback, a first compile stores the entry; with the local cache cleared, a
# compile into a fresh directory is a remote hit with identical files (and
# fills the local cache); a corrupted, truncated or poisoned (another compile's
# valid entry) remote entry, and a server lying about its Content-Length, are a
# warning and a recompile (a body cut short is asked for once more); a 503 is retried once (a hit);
# a dead server is a warning and a compile, not a failure. check-remote-nginx.sh covers https,
# credentials and the modes against nginx: this server is kept for the lies nginx does not tell.
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
  timeout "${limit:-600}" "$mc" -model="$model" -emit-bundle="$out" -network-name=net -verbose "$@" >"$out.log" 2>&1 ||
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
[ "$(find "$work/local" -mindepth 2 -type f | wc -l)" = 1 ] || fail "a remote hit should fill the local cache"
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

# miss <name> <warning regex>: a compile that warns, recompiles, and writes the first compile's files.
miss() {
  compile "$work/$1" -remote-cache="$url" "${extra[@]}"
  grep -Eq "$2" "$work/$1.log" || { cat "$work/$1.log"; fail "$1: no warning matching '$2'"; }
  grep -q "nodes after optimization" "$work/$1.log" || fail "$1: the bad entry was used"
  same "$work/first" "$work/$1"
}
extra=("$@")
size=$(stat -c %s "$work/store/$entry")
truncate -s $((size - 100)) "$work/store/$entry"
miss truncated "warning: corrupted cache entry .*\(truncated\)"
[ "$(stat -c %s "$work/store/$entry")" = "$size" ] || fail "truncated: a good entry was not stored again"
echo "truncated remote entry: detected, recompiled, stored again"

# Poisoned: another compile's valid entry (-network-name=other) under this compile's key.
compile "$work/other" -network-name=other -remote-cache="$url" "$@"
other=$(ls "$work/store" | grep -vx "$entry")
[ "$(echo "$other" | wc -l)" = 1 ] || fail "expected the other compile's one entry, found: $other"
cp "$work/store/$other" "$work/store/$entry"
miss poisoned "warning: corrupted cache entry .*another key"
cmp -s "$work/store/$other" "$work/store/$entry" && fail "poisoned: the entry was not replaced"
echo "poisoned remote entry (another compile's): refused, recompiled, stored again"

# A lying server: refused at once (no 1 TiB allocated, no wait for the endless body), or truncated.
echo huge-length >"$work/store/.mode"
limit=60 miss huge-length "warning: remote cache .*1099511627776 .*limit"
echo short-body >"$work/store/.mode"
gets=$(grep -c '"GET ' "$work/server.log")
limit=60 miss short-body "warning: remote cache .*truncated"
[ "$(grep -c '"GET ' "$work/server.log")" = $((gets + 2)) ] || fail "short-body: the cut transfer was not tried twice"
# Right bytes, connection left open for 30 s: read up to Content-Length, a hit (waiting for the
# close would run into the 10 s receive timeout, a miss).
echo keep-open >"$work/store/.mode"
limit=60 compile "$work/keep-open" -remote-cache="$url" "$@"
grep -q "^glowc: cache hit .*$url" "$work/keep-open.log" || { cat "$work/keep-open.log"; fail "keep-open: expected a hit"; }
same "$work/first" "$work/keep-open"
rm "$work/store/.mode"
echo "lying server (1 TiB claimed, short body, left open): warned and recompiled, or a prompt hit"

echo 503-once >"$work/store/.mode"
compile "$work/retried" -remote-cache="$url" "$@"
grep -q "^glowc: cache hit .*$url" "$work/retried.log" || { cat "$work/retried.log"; fail "503-once: expected a hit on the retry"; }
grep -q '"GET .* 503 ' "$work/server.log" || fail "503-once: the server sent no 503"
echo "a 503, then the entry: retried once, a hit"

kill "$pid"
wait "$pid" 2>/dev/null || true
pid=
compile "$work/down" -remote-cache="$url" "$@"
grep -q "warning: remote cache" "$work/down.log" || { cat "$work/down.log"; fail "no warning for a dead server"; }
same "$work/first" "$work/down"
echo "server down: warning, compiled, identical bundle"
echo "PASS"
