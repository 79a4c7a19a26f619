#!/usr/bin/env bash
# -bundle-objects, as Glow's bundle_with_extra_objects uses it: the extra object is
# archived into <name>.o, a program linking only that file finds its symbols, the
# archive is the same bytes twice, and bad names are refused with nothing written.
#   check-bundle-objects.sh <model-compiler> <relu.onnx> <C compiler> <C++ compiler>
set -u
mc=$1 model=$2 cc=$3 cxx=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work"
"$cc" -c -o test.o "$here/message.c" || fail "cannot compile message.c"
# Glow's command line (examples/bundles/bundle_with_extra_objects/CMakeLists.txt), tool path changed.
"$mc" -model="$model" -network-name=relu -backend=CPU -emit-bundle=out -bundle-api=static -bundle-objects=test.o ||
  fail "model-compiler -bundle-objects=test.o failed"
[ "$(head -c 8 out/relu.o)" = '!<arch>' ] || fail "out/relu.o is not an archive"
"$cxx" -std=c++11 -Iout "$here/client.cpp" out/relu.o -o client || fail "the client does not link with out/relu.o alone"
./client | tee run.txt || fail "the client failed"
grep -q "Hello from an object archived" run.txt || fail "testMsg not printed"
"$mc" -model="$model" -network-name=relu -emit-bundle=again -bundle-objects=test.o || fail "second compile failed"
cmp out/relu.o again/relu.o || fail "two compiles gave different archives"
GLOWC_BUNDLE_OBJECTS_DIR=$work "$mc" -model="$model" -network-name=relu -emit-bundle=registered \
  -bundle-objects=test.o >/dev/null 2>&1 || fail "an object found through GLOWC_BUNDLE_OBJECTS_DIR was refused"
echo "ok: archive linked alone, testMsg found, deterministic"
if "$mc" -model="$model" -network-name=relu -emit-bundle=bad -bundle-objects=nosuch.o 2>err.txt; then
  fail "a missing object was accepted"
fi
grep -q "nosuch.o: error: -bundle-objects: no such object file" err.txt || { cat err.txt; fail "unclear error"; }
[ ! -e bad ] || fail "a failed compile left the folder bad"
cp test.o relu.o
if "$mc" -model="$model" -network-name=relu -emit-bundle=bad -bundle-objects=relu.o 2>err.txt; then
  fail "a member named like the bundle's object was accepted"
fi
grep -q "already named relu.o" err.txt || { cat err.txt; fail "unclear error for a clashing member"; }
echo "ok: missing and clashing objects refused, nothing written"
