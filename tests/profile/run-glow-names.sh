#!/usr/bin/env bash
# A profile named as Glow names its entries (glow-names.py: Glow's node names,
# decoys for its own nodes) must quantize a model exactly as glowc's own profile
# with the same ranges does: byte-identical bundles. Then, with the entry for the
# first Conv's result left out, the compile must fail naming that value (the
# Conv's input transpose, which Glow also profiles, is not taken instead).
#   run-glow-names.sh <model-compiler> <model-profiler> <glowc source> <model.onnx> <work dir> [<calibration dir>]
# Without a calibration dir, 2 random inputs are made.
set -euo pipefail
mc=$1 mp=$2 src=$3 model=$4 work=$5 cal=${6-}
py=/usr/bin/python3
rm -rf "$work"
mkdir -p "$work/own" "$work/glow" "$work/dropped"
if [ -z "$cal" ]; then
  cal=$work/calibration
  "$py" "$src/tests/accuracy/random-inputs.py" "$model" "$cal" 2 >/dev/null
fi
"$mp" -model="$model" -input-dataset=input,rawbin,"$cal" -dump-profile="$work/own.yml"
"$py" "$src/tests/profile/glow-names.py" "$work/own.yml" "$model" "$work/glow.yml"
"$mc" -model="$model" -emit-bundle="$work/own" -network-name=net -load-profile="$work/own.yml"
"$mc" -model="$model" -emit-bundle="$work/glow" -network-name=net -load-profile="$work/glow.yml" -verbose \
  2>"$work/glow.log" || { cat "$work/glow.log"; exit 1; }
grep "written by Glow" "$work/glow.log"
for f in net.o net.weights.bin; do
  cmp "$work/own/$f" "$work/glow/$f" || { echo "FAIL: $f differs between the glowc and Glow-named profiles"; exit 1; }
done
echo "the Glow-named profile gives the same bundle"

conv=$("$py" -c 'import onnx, re, sys
n = next(n for n in onnx.load(sys.argv[1]).graph.node if n.op_type == "Conv")
print(re.sub(r"[^A-Za-z0-9_]", "_", n.name or "Conv_" + n.output[0]))' "$model")
"$py" "$src/tests/profile/glow-names.py" "$work/own.yml" "$model" "$work/dropped.yml" --drop "${conv}__2:0"
if "$mc" -model="$model" -emit-bundle="$work/dropped" -network-name=net -load-profile="$work/dropped.yml" \
  2>"$work/dropped.log"; then
  echo "FAIL: compiled without the first Conv's entry ${conv}__2:0"; exit 1
fi
cat "$work/dropped.log"
grep -q "missing: .*(sought: ${conv} entries" "$work/dropped.log" ||
  { echo "FAIL: the error does not name the value of ${conv}"; exit 1; }
[ -z "$(ls -A "$work/dropped")" ] || { echo "FAIL: files left behind"; exit 1; }
echo "a missing entry is reported"
