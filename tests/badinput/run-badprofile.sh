#!/usr/bin/env bash
# Bad input to model-profiler (and model-compiler -dump-profile): each case must
# exit non-zero, say what is wrong (stderr matched against a pattern naming the
# file or option), and leave no profile, not even a temporary one.
#   run-badprofile.sh <model-profiler> <model-compiler> <case>
set -u
mp=$1
mc=$2
case_name=$3
here=$(cd "$(dirname "$0")" && pwd)
model=$here/../profile/tiny.onnx # inputs x float[1,6], b float[6]
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
mkdir -p "$out" "$work/x" "$work/b"
printf '1 2 3 4 5 6\n' >"$work/x/s0.txt"
printf '1 2 3 4 5 6\n' >"$work/x/s1.txt"
printf '\0\0\200\77%.0s' 1 2 3 4 5 6 >"$work/b/s0.bin" # six little-endian 1.0f
cp "$work/b/s0.bin" "$work/b/s1.bin"
x=-input-dataset=x,rawtxt,$work/x
b=-input-dataset=b,rawbin,$work/b
tool=$mp
prof=$out/p.yml

case $case_name in
truncated-rawbin)
  head -c 20 "$work/b/s0.bin" >"$work/b/s1.bin"
  args=("$x" "$b")
  want="b/s1.bin: error: rawbin file holds 20 bytes; input 'b' \(float\[6\]\) needs exactly 24" ;;
rawtxt-count)
  printf '1 2 3\n4 5\n' >"$work/x/s1.txt"
  args=("$x" "$b")
  want="x/s1.txt: error: rawtxt file holds 5 numbers; input 'x' \(float\[1,6\]\) needs exactly 6" ;;
rawtxt-not-a-number)
  printf '1 2 3\n4 five 6\n' >"$work/x/s1.txt"
  args=("$x" "$b")
  want="x/s1.txt: error: line 2: 'five' is not a number for input 'x'" ;;
npy-wrong-type)
  hdr="{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }" # padded to 128 bytes in all
  printf '\x93NUMPY\x01\x00\x76\x00%-117s\n' "$hdr" >"$work/b/s1.npy"
  head -c 48 /dev/zero >>"$work/b/s1.npy"
  rm "$work/b/s1.bin"
  args=("$x" "$b")
  want="b/s1.npy: error: .npy array holds 6 double values; input 'b' is float\[6\]" ;;
bad-dataset-kind)
  args=("$x" -input-dataset=b,rawjpeg,"$work/b")
  want="-input-dataset: error: unknown kind 'rawjpeg'.*rawbin, rawtxt" ;;
bad-dataset-syntax)
  args=("$x" -input-dataset=b,rawbin)
  want="-input-dataset: error: 'b,rawbin' is not <input name>,rawbin\|rawtxt,<file or dir>" ;;
unknown-dataset-input)
  args=("$x" "$b" -input-dataset=c,rawbin,"$work/b")
  want="-input-dataset: error: 'c,rawbin,.*': the model has no input named 'c' \(its inputs: 'x', 'b'\)" ;;
missing-dataset)
  args=("$x")
  want="-input-dataset: error: no dataset for the model input\(s\) 'b'" ;;
missing-dataset-dir)
  args=("$x" -input-dataset=b,rawbin,"$work/nosuchdir")
  want="nosuchdir: error: cannot read the -input-dataset of input 'b': No such file" ;;
empty-dataset-dir)
  mkdir -p "$work/empty"
  args=("$x" -input-dataset=b,rawbin,"$work/empty")
  want="empty: error: the -input-dataset directory of input 'b' holds no files" ;;
sample-counts-differ)
  rm "$work/b/s1.bin"
  args=("$x" "$b")
  want="-input-dataset: error: input 'x' has 2 samples but input 'b' has 1" ;;
no-dump-profile)
  prof=
  args=("$x" "$b")
  want="no profile file given: pass -dump-profile=<file.yml>" ;;
profile-dir-missing)
  prof=$out/no/such/dir/p.yml
  args=("$x" "$b")
  want="no/such/dir/p.yml: error: cannot write the -dump-profile file: directory '.*no/such/dir' does not exist" ;;
bundle-option)
  args=("$x" "$b" -mcpu=znver4)
  want="unknown option '-mcpu=znver4'" ;;
compiler-dump-profile-and-bundle)
  tool=$mc
  args=("$x" "$b" -emit-bundle="$out")
  want="-dump-profile: error: .*emits no bundle: drop -emit-bundle" ;;
compiler-dataset-without-profile)
  tool=$mc
  prof=
  args=("$x" "$b" -emit-bundle="$out")
  want="-input-dataset: error: calibration data is for profiling: pass -dump-profile" ;;
*)
  echo "unknown case $case_name"; exit 2 ;;
esac

"$tool" -model="$model" "${args[@]}" ${prof:+-dump-profile="$prof"} >"$work/stdout" 2>"$work/stderr"
rc=$?
status=0
if [ $rc -eq 0 ]; then
  echo "FAIL: exit status 0, expected an error"; status=1
elif [ $rc -gt 125 ]; then
  echo "FAIL: crashed (exit status $rc)"; status=1
fi
if ! grep -Ezq -- "$want" "$work/stderr"; then
  echo "FAIL: stderr does not match /$want/"; status=1
fi
left=$(ls -A "$out")
if [ -n "$left" ]; then
  echo "FAIL: files left behind: $left"; status=1
fi
echo "--- stderr:"; cat "$work/stderr"
exit $status
