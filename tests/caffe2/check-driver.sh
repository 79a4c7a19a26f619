#!/usr/bin/env bash
# The front ends on a Caffe2 model (gen-caffe2.py's "ops" case):
#  * -model=<dir> names the bundle after the folder (a trailing '/' too);
#  * Glow's two-file form -model=predict_net.pb -model=init_net.pb gives the very same bundle;
#  * the compile cache keys on both nets' bytes: a hit when nothing changed, a miss when
#    either file changed;
#  * model-profiler profiles it (the blobs' names in the profile).
#   check-driver.sh <model-compiler> <model-profiler> <case dir>
set -eu
mc=$1
mp=$2
case_dir=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
in=-model-input=input,float,[1,8,16,16]
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$work/ops_net" "$work/dir" "$work/files"
cp "$case_dir/caffe2/predict_net.pb" "$case_dir/caffe2/init_net.pb" "$work/ops_net/"
"$mc" -model="$work/ops_net/" -emit-bundle="$work/dir" "$in"
[ -f "$work/dir/ops_net.o" ] && [ -f "$work/dir/ops_net.h" ] || fail "no ops_net.o/.h: $(ls "$work/dir")"
"$mc" -model="$work/ops_net/predict_net.pb" -model="$work/ops_net/init_net.pb" -network-name=ops_net \
  -emit-bundle="$work/files" "$in"
for f in ops_net.o ops_net.h ops_net.weights.bin ops_net.weights.txt; do
  cmp "$work/dir/$f" "$work/files/$f" || fail "$f differs between -model=<dir> and the two-file form"
done
echo "-model=<dir> and -model=predict_net.pb -model=init_net.pb: the same bundle (ops_net)"

cache() { "$mc" -model="$work/ops_net" -emit-bundle="$work/dir" "$in" -cache-dir="$work/cache" -verbose 2>&1 |
  grep -oE "cache (hit|miss)"; }
[ "$(cache)" = "cache miss" ] || fail "first compile is not a cache miss"
[ "$(cache)" = "cache hit" ] || fail "an unchanged model is not a cache hit"
# A field appended to a NetDef (its name, again) changes the bytes, not the net.
printf '\x0a\x01x' >>"$work/ops_net/init_net.pb"
[ "$(cache)" = "cache miss" ] || fail "a changed init_net.pb is still a cache hit"
printf '\x0a\x01x' >>"$work/ops_net/predict_net.pb"
[ "$(cache)" = "cache miss" ] || fail "a changed predict_net.pb is still a cache hit"
[ "$(cache)" = "cache hit" ] || fail "the changed model is not a hit the second time"
echo "cache: keyed on both predict_net.pb and init_net.pb"

/usr/bin/python3 -c "import numpy as np, sys; np.save(sys.argv[1], np.random.default_rng(0).standard_normal(
  (1, 8, 16, 16), dtype=np.float32))" "$work/sample.npy"
"$mp" -model="$work/ops_net" "$in" -input-dataset=input,rawbin,"$work/sample.npy" -dump-profile="$work/p.yml"
grep -q "NodeOutputName: 'output:0'" "$work/p.yml" || fail "the profile has no entry for the output blob"
echo "model-profiler: $(grep -c NodeOutputName "$work/p.yml") values profiled"
