#!/usr/bin/env bash
# The local cache's bound and statistics: glowc-cache counts every hit and miss (also of 20
# compiles at once), -cache-max-size (and GLOWC_CACHE_MAX_SIZE) removes the least recently used
# entries (a hit refreshes one), -prune, -clear, -zero-stats and -verify do what they say, and a
# size that is not one is an error before anything compiles.
#   check-cache-stats.sh <model-compiler> <glowc-cache> <model.onnx>
set -u
mc=$1 gc=$2 model=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=$work/cache
fail() { echo "FAIL: $*"; exit 1; }
# compile <name> [options...]: bundle <name> into $work/out with the cache
compile() {
  local n=$1
  shift
  "$mc" -model="$model" -emit-bundle="$work/out" -network-name="$n" -mcpu=baseline -cache-dir="$cache" "$@" \
    >"$work/$n.log" 2>&1 || { cat "$work/$n.log"; fail "compile of $n failed"; }
}
stat_of() { "$gc" -cache-dir="$cache" -s | awk -v k="$1" 'substr($0, 1, 16) ~ "^" k " *$" {split(substr($0, 18), v, " "); print v[1]}'; }
expect() { # expect <label> <value>
  local got
  got=$(stat_of "$1")
  [ "$got" = "$2" ] || { "$gc" -cache-dir="$cache" -s; fail "$1: $got, expected $2"; }
}
keys() { find "$cache" -mindepth 2 -type f -name '????????????????????????????????????????????????????????????????' \
  -printf '%f\n' | sort; }
key_of() { "$mc" -model="$model" -network-name="$1" -mcpu=baseline -print-cache-key; }

# A miss, then 20 hits at once: every lookup counted once (no update lost).
compile net
for i in $(seq 20); do compile net & done
wait
expect "local hits" 20 && expect "local misses" 1 && expect stored 1 && expect entries 1
echo "1 compile, then 20 at once: 20 hits and 1 miss counted"

"$gc" -cache-dir="$cache" -z >/dev/null && expect "local hits" 0 && expect "local misses" 0
entry=$(find "$cache" -mindepth 2 -type f | head -1)
size=$(stat -c %s "$entry")
"$gc" -cache-dir="$cache" -C >/dev/null && expect entries 0 && expect bytes 0

# LRU: room for two entries; a was used after b, so c's store removes b.
bound=$((size * 5 / 2))
compile a -cache-max-size=$bound
sleep 0.05
compile b -cache-max-size=$bound
sleep 0.05
compile a -cache-max-size=$bound
grep -q . "$work/a.log" && fail "a: unexpected output: $(cat "$work/a.log")"
sleep 0.05
GLOWC_CACHE_MAX_SIZE=$bound compile c -verbose
grep -q "1 least recently used entry removed" "$work/c.log" || { cat "$work/c.log"; fail "c's store removed nothing"; }
[ "$(keys)" = "$( (key_of a; key_of c) | sort)" ] || fail "after c: expected a's and c's entries, found: $(keys)"
expect "local hits" 1 && expect "local misses" 3 && expect stored 3 && expect evicted 1 && expect entries 2
echo "-cache-max-size=$bound (2.5 entries): a hit kept a, b (least recently used) removed"

# -prune to one entry keeps the most recent (c); -verify passes, then finds a corrupted entry.
"$gc" -cache-dir="$cache" -prune=$((size * 3 / 2)) | grep -qx "1 entry removed" || fail "-prune"
[ "$(keys)" = "$(key_of c)" ] || fail "-prune kept $(keys), not c's entry"
"$gc" -cache-dir="$cache" -verify >/dev/null || fail "-verify on a good cache"
printf 'X' | dd of="$(find "$cache" -mindepth 2 -type f | head -1)" bs=1 seek=0 conv=notrunc status=none
"$gc" -cache-dir="$cache" -verify >"$work/verify.log" 2>&1 && fail "-verify passed a corrupted entry"
grep -q "bad cache entry" "$work/verify.log" || fail "-verify: $(cat "$work/verify.log")"
echo "-prune kept the most recent entry; -verify found a corrupted one"

# Bad input: each an error naming what is wrong, before anything compiles.
bad() { # bad <expected message> <command...>
  local want=$1
  shift
  rm -rf "$work/bad"
  "$@" >"$work/bad.log" 2>&1 && fail "accepted: $*"
  grep -q -- "$want" "$work/bad.log" || { cat "$work/bad.log"; fail "$*: expected '$want'"; }
  [ ! -e "$work/bad" ] || fail "$*: wrote $work/bad"
}
bad "-cache-max-size: error: '12Q' is not a size" \
  "$mc" -model="$model" -emit-bundle="$work/bad" -cache-dir="$cache" -cache-max-size=12Q
bad "-cache-max-size: error: '-1M' is not a size" \
  "$mc" -model="$model" -emit-bundle="$work/bad" -cache-dir="$cache" -cache-max-size=-1M
bad "GLOWC_CACHE_MAX_SIZE: error: 'lots' is not a size" \
  env GLOWC_CACHE_MAX_SIZE=lots "$mc" -model="$model" -emit-bundle="$work/bad" -cache-dir="$cache"
bad "would keep nothing" "$mc" -model="$model" -emit-bundle="$work/bad" -cache-dir="$cache" -cache-max-size=0
bad "more than 2^48 bytes" "$mc" -model="$model" -emit-bundle="$work/bad" -cache-dir="$cache" -cache-max-size=300000G
bad "bounds the local cache: give -cache-dir" \
  env -u GLOWC_CACHE_DIR "$mc" -model="$model" -emit-bundle="$work/bad" -cache-max-size=1G
bad "-prune: error: '1X' is not a size" "$gc" -cache-dir="$cache" -prune=1X
bad "no cache folder" env -u GLOWC_CACHE_DIR "$gc" -s
bad "not a folder" "$gc" -cache-dir="$work/nowhere" -s
bad "nothing to do" "$gc" -cache-dir="$cache"
bad "unknown option '-M'" "$gc" -cache-dir="$cache" -M 1G
echo "bad sizes, a missing cache folder and unknown options: clear errors, nothing compiled"
echo "ok"
