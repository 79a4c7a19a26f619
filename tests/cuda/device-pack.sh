#!/usr/bin/env bash
# Packs CUDA bundles to run on a GPU machine that has none of glowc's build dependencies
# (the device tool's machines: nothing can be installed there, and only 64 MiB travel with
# the working tree). Compiled here: each test as a shared object (a bundle "model" linked
# with cc -shared), with its weights and its test case, and run-bundle-dl, which runs them
# all in one process and needs only the C library and the NVIDIA driver.
#
#   tests/cuda/device-pack.sh <build dir> <out dir> nodes [sm_XX]
#       the conformance must-pass list (tests/conformance/must-pass.txt): <out>/nodes/<test>/
#   tests/cuda/device-pack.sh <build dir> <out dir> coverage [sm_XX]
#       tests/coverage's must-pass cases (conformance.coverage-generate writes them):
#       <out>/coverage/<case>/
#   tests/cuda/device-pack.sh <build dir> <out dir> models <model>... [-- sm_XX]
#       real models from <build>/tests/models/gen (models.generate makes them; GLOWC_MODELS_DIR
#       names another folder): <out>/models/<m>/
#
# <out>/run.sh then runs everything packed, on the GPU, against the references (node tests
# as conformance compares them; models within 1e-3 relative max error, as the issue asks):
#   device run: command "bash <out>/run.sh", carry ["<out>"] (a path git ignores, e.g. build-gpu/)
set -euo pipefail
build=$(cd "$1" && pwd)
out=$2
kind=$3
shift 3
src=$(cd "$(dirname "$0")/../.." && pwd)
sm=sm_90
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$build/tests/cuda/device-pack
rm -rf "$work"

harness() { # the conformance harness, linking shared objects and not running them
  python3 "$src/tests/conformance/run-conformance.py" --compiler "$build/compiler/driver/model-compiler" \
    --compiler-arg=-target=nvptx64-nvidia-cuda --compiler-arg=-mcpu="$sm" \
    --link "cc -shared {obj} -o {exe}" --run-prefix true --keep --work "$work" "$@"
}
pack() { # <suite> <name> <dest>: model.so, the weights and the case
  mkdir -p "$3"
  cp "$work/$2/run" "$3/model.so"
  cp "$work/$2/model.weights.bin" "$3/"
  rm -rf "$3/test_data_set_0"
  cp -r "$1/$2/test_data_set_0" "$3/"
}

case $kind in
nodes | coverage)
  sm=${1:-$sm}
  if [ "$kind" = nodes ]; then
    suite=$src/../shared/onnx-node-tests list=$src/tests/conformance/must-pass.txt
  else
    suite=$build/tests/coverage/cases list=$src/tests/coverage/must-pass.txt
    [ -d "$suite" ] || { echo "device-pack: no $suite: run ctest -R conformance.coverage-generate first" >&2; exit 1; }
  fi
  harness --suite "$suite" --must-pass "$list" --only-must-pass --require-all \
    >"$work.log" 2>&1 || { tail -20 "$work.log"; exit 1; }
  while read -r t; do
    [ -n "$t" ] && [ "${t#\#}" = "$t" ] && pack "$suite" "$t" "$out/$kind/$t"
  done <"$list" ;;
models)
  models_dir=${GLOWC_MODELS_DIR:-$build/tests/models/gen}
  models=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do models+=("$1"); shift; done
  [ "${1-}" = -- ] && sm=${2:-$sm}
  for m in "${models[@]}"; do
    harness --suite "$models_dir" --filter "^$m\$" --require-all >"$work.log" 2>&1 ||
      { tail -20 "$work.log"; exit 1; }
    pack "$models_dir" "$m" "$out/models/$m"
  done ;;
*)
  echo "device-pack: the kind is nodes, coverage or models, not '$kind'" >&2
  exit 2 ;;
esac
cp "$build/tests/harness/run-bundle-dl" "$src/bench/cuda-reference.py" "$out/"
cat >"$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the packed CUDA bundles on this machine's GPU (tests/cuda/device-pack.sh): node tests
# as conformance compares them, models within 1e-3 relative max error, each model then timed
# (GLOWC_TEST_TIME_RUNS runs, default 30), and the references' latency (cuda-reference.py:
# ONNX Runtime on the CPU, PyTorch on the GPU) when run with "bench".
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
status=0
for k in nodes coverage; do
  [ -d $k ] || continue
  # 32 tests a process, 8 processes at once: a test that faults the GPU spoils its
  # process's CUDA context, and so only the tests run after it there.
  ls -d $k/* | xargs -P 8 -n 32 ./run-bundle-dl >$k.log 2>&1 || status=1
  grep -E ': (error|wrong result)' $k.log | head -40
  awk -v k=$k '/^run-bundle-dl: [0-9]+ of [0-9]+ passed/ { p += $2; n += $4 }
       END { print k ": " p " of " n " passed (" k ".log)" }' $k.log
done
for m in models/*; do
  [ -d "$m" ] || continue
  echo "$m:"
  GLOWC_TEST_TIME_RUNS=${GLOWC_TEST_TIME_RUNS:-30} ./run-bundle-dl -max-rel 1e-3 "$m" || status=1
done
[ "${1-}" = bench ] && python3 cuda-reference.py 30 1
exit $status
RUN
chmod +x "$out/run.sh"
echo "device-pack: $(du -sh "$out" | cut -f1) in $out ($kind, -mcpu=$sm)"
