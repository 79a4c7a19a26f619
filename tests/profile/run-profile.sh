#!/usr/bin/env bash
# model-profiler end to end on tiny.onnx (x -> Relu -> r -> Mul 2 -> y -> Add b -> s):
#   run-profile.sh <model-profiler> <model-compiler> <python3> <case>
# Cases: by-hand (every Min and Max worked out by hand from the samples below),
# determinism (two runs from different directories: the same bytes),
# model-compiler (-dump-profile gives the same bytes), glow-forms (Glow's
# dir,<dir> and file,<list>,<prefix> give the same bytes), npy (.npy samples
# give the same bytes as rawtxt/rawbin ones), digits (the digits CNN over 50
# random images, twice, in different directories: the same bytes).
set -u
mp=$1
mc=$2
py=$3
case_name=$4
here=$(cd "$(dirname "$0")" && pwd)
model=$here/tiny.onnx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Two samples. x (float[1,6]) as rawtxt, b (float[6]) as rawbin.
#   sample 0: x = 0 .5 1 250 999.5 1000     b = 1 2 3 4 5 6
#   sample 1: x = -1000 -500 0 0 0 0        b = 0 0 0 0 0 -8
# r = relu(x): [0, 1000]; y = 2r: [0, 2000];
# s = y + b: sample 0 = 1 3 5 504 2004 2006, sample 1 = 0 0 0 0 0 -8: [-8, 2006].
data=$work/data
mkdir -p "$data/x" "$data/b"
printf '0 0.5 1 250 999.5 1000\n' >"$data/x/s0.txt"
printf -- '-1000, -500,\n0, 0, 0, 0,\n' >"$data/x/s1.txt"
"$py" - "$data" <<'EOF'
import struct, sys
d = sys.argv[1]
open(d + "/b/s0.bin", "wb").write(struct.pack("<6f", 1, 2, 3, 4, 5, 6))
open(d + "/b/s1.bin", "wb").write(struct.pack("<6f", 0, 0, 0, 0, 0, -8))
EOF
ds=(-input-dataset=x,rawtxt,"$data/x" -input-dataset=b,rawbin,"$data/b")

profile() { # out, then options
  local out=$1
  shift
  "$mp" -model="$model" "$@" -dump-profile="$out" || fail "model-profiler $* exited with $?"
}

case $case_name in
by-hand)
  profile "$work/p.yml" "${ds[@]}"
  cat "$work/p.yml" | head -20
  # name, Min, Max as the file writes them (entries sorted by name).
  want="b:0 -8 6
r:0 0 1000
s:0 -8 2006
x:0 -1000 1000
y:0 0 2000"
  got=$(awk '/NodeOutputName:/{gsub("\x27", "", $3); n=$3} /^  Min:/{mn=$2} /^  Max:/{print n, mn, $2}' "$work/p.yml")
  [ "$got" = "$want" ] || fail "entries differ:"$'\n'"$got"$'\n'"expected:"$'\n'"$want"
  head -6 "$work/p.yml" | grep -qx 'GlowToolsVersion: glowc [0-9.]*' || fail "no GlowToolsVersion document first"
  grep -qx 'GraphPreLowerHash: 0x[0-9A-F]\{16\}' "$work/p.yml" || fail "no GraphPreLowerHash document"
  [ "$(grep -c '^  Histogram: \[' "$work/p.yml")" = 5 ] || fail "not five histograms"
  ;;
determinism)
  mkdir -p "$work/a" "$work/b2"
  cp -r "$data" "$work/a/data"
  (cd "$work/a" && "$mp" -model="$model" -input-dataset=x,rawtxt,data/x -input-dataset=b,rawbin,data/b \
    -dump-profile=p.yml) || fail "first run"
  (cd "$work/b2" && "$mp" -model="$model" "${ds[@]}" -dump-profile="$work/b2/p.yml") || fail "second run"
  cmp "$work/a/p.yml" "$work/b2/p.yml" || fail "two runs gave different profiles"
  ;;
model-compiler)
  profile "$work/p.yml" "${ds[@]}"
  "$mc" -model="$model" "${ds[@]}" -dump-profile="$work/q.yml" || fail "model-compiler -dump-profile exited with $?"
  cmp "$work/p.yml" "$work/q.yml" || fail "model-compiler -dump-profile differs from model-profiler"
  ;;
glow-forms)
  profile "$work/p.yml" "${ds[@]}"
  printf 's0.bin, cat\ns1.bin 1\n\n' >"$work/list.csv"
  profile "$work/q.yml" -input-dataset=x,rawtxt,dir,"$data/x" -input-dataset=b,rawbin,file,"$work/list.csv","$data/b"
  cmp "$work/p.yml" "$work/q.yml" || fail "Glow's dataset forms give another profile"
  ;;
npy)
  profile "$work/p.yml" "${ds[@]}"
  mkdir -p "$work/npy"
  "$py" - "$work/npy" <<'EOF'
import struct, sys
def save(path, shape, values):  # NumPy's .npy, version 1, little-endian float32
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % (shape,)
    hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
    open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode()
                           + struct.pack("<%df" % len(values), *values))
d = sys.argv[1]
save(d + "/x0.npy", (1, 6), [0, 0.5, 1, 250, 999.5, 1000])
save(d + "/x1.npy", (1, 6), [-1000, -500, 0, 0, 0, 0])
save(d + "/b0.npy", (6,), [1, 2, 3, 4, 5, 6])
save(d + "/b1.npy", (6,), [0, 0, 0, 0, 0, -8])
EOF
  printf 'x0.npy\nx1.npy\n' >"$work/x.list"
  printf 'b0.npy\nb1.npy\n' >"$work/b.list"
  profile "$work/q.yml" -input-dataset=x,rawtxt,file,"$work/x.list","$work/npy" \
    -input-dataset=b,rawbin,file,"$work/b.list","$work/npy"
  cmp "$work/p.yml" "$work/q.yml" || fail ".npy samples give another profile"
  ;;
digits)
  for run in 1 2; do
    mkdir -p "$work/run$run/images"
    "$py" - "$work/run$run/images" <<'EOF'
import random, struct, sys
random.seed(5)
for i in range(50):
    open("%s/%02d.bin" % (sys.argv[1], i), "wb").write(struct.pack("<64f", *[random.uniform(0, 16) for _ in range(64)]))
EOF
    (cd "$work/run$run" && "$mp" -model="$here/../../examples/digits/digits.onnx" -input-dataset=input,rawbin,images \
      -dump-profile=digits.yml) || fail "run $run"
  done
  cmp "$work/run1/digits.yml" "$work/run2/digits.yml" || fail "two runs gave different profiles"
  [ "$(grep -c NodeOutputName "$work/run1/digits.yml")" = 11 ] || fail "not 11 values in the digits profile"
  ;;
*)
  echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS: $case_name"
