#!/usr/bin/env bash
# model-compiler's command line as a Glow user meets it: each case runs one
# command and checks the exit status, the message and what is left on disk.
#   check-options.sh <model-compiler> <model-profiler> <onnx-node-tests> <case>
set -u
mc=$1 mp=$2 suite=$3 case_name=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
relu=$suite/test_relu/model.onnx

expect_fail() { # <pattern> <command...>: non-zero exit, stderr matching the pattern
  local want=$1; shift
  if "$@" >"$work/out" 2>"$work/err"; then
    echo "FAIL: '$*' succeeded"; exit 1
  fi
  if ! grep -Eq -- "$want" "$work/err"; then
    echo "FAIL: '$*' said:"; cat "$work/err"; echo "expected: $want"; exit 1
  fi
  echo "ok: $(head -1 "$work/err")"
}

case $case_name in
unknown-near) # a misspelt option names the closest one
  expect_fail "unknown option '-emit-bundel=x' \(did you mean -emit-bundle\?" "$mc" -model="$relu" -emit-bundel=x ;;
refused-glow) # a Glow option glowc does not take says why and what to use
  expect_fail "^-convert-to-fp16: error: Glow's option, which glowc does not take: .*-weights=zst" \
    "$mc" -model="$relu" -emit-bundle="$work/b" -convert-to-fp16
  [ ! -e "$work/b" ] || { echo "FAIL: a refused option left $work/b"; exit 1; } ;;
wrong-tool) # an option of another tool
  expect_fail "unknown option '-emit-bundle=x': model-compiler takes it, model-profiler does not" \
    "$mp" -model="$relu" -emit-bundle=x -dump-profile="$work/p.yml" ;;
flag-value) # Glow's -flag=true/false, and nothing else
  "$mc" -model="$relu" -emit-bundle="$work/b" -g=false -bundle-api=dynamic >/dev/null 2>&1 ||
    { echo "FAIL: -g=false refused"; exit 1; }
  expect_fail "-g takes no value, or true or false; not 'maybe'" "$mc" -model="$relu" -emit-bundle="$work/c" -g=maybe ;;
missing-value)
  expect_fail "-emit-bundle needs a value: -emit-bundle=<dir>" "$mc" -model="$relu" -emit-bundle ;;
arm-no-mcpu) # Glow's -target=arm names the architecture only: the CPU picks the target
  expect_fail "^-target: error: -target=arm needs -mcpu.*cortex-m4" "$mc" -model="$relu" -emit-bundle="$work/b" -target=arm ;;
arm-m3) # a core glowc has no target for: the message lists the ones it has
  expect_fail "^-mcpu: error: 'cortex-m3' with -target=arm: .*knows .*cortex-m0.*cortex-m33.*cortex-m55.*cortex-a7" \
    "$mc" -model="$relu" -emit-bundle="$work/b" -target=arm -mcpu=cortex-m3 ;;
arm-cores) # Glow's -target=arm -mcpu=<core>: the object is for that core's architecture and float ABI
  for c in "cortex-m0 v6S-M none" "cortex-m0plus v6S-M none" "cortex-m4 v7E-M soft" "cortex-m7 v7E-M soft" \
    "cortex-m33 v8-M.mainline soft" "cortex-m55 v8.1-M.mainline soft" "cortex-a7 v7 hard" "cortex-a9 v7 hard"; do
    read -r cpu arch fp <<<"$c"
    rm -rf "$work/b"
    "$mc" -model="$relu" -emit-bundle="$work/b" -target=arm -mcpu="$cpu" -network-name=relu >"$work/out" 2>&1 ||
      { echo "FAIL: -target=arm -mcpu=$cpu:"; cat "$work/out"; exit 1; }
    attrs=$(readelf -A "$work/b/relu.o")
    grep -q "Tag_CPU_arch: $arch\$" <<<"$attrs" || { echo "FAIL: $cpu: not $arch:"; echo "$attrs"; exit 1; }
    case $fp in # no FPU: no FP attribute; soft: FPU used, floats in core registers; hard: in VFP registers
    none) ! grep -q "Tag_FP_arch" <<<"$attrs" || { echo "FAIL: $cpu: FP instructions in a no-FPU object"; exit 1; } ;;
    soft) grep -q "Tag_FP_arch" <<<"$attrs" && ! grep -q "Tag_ABI_VFP_args: VFP registers" <<<"$attrs" ||
      { echo "FAIL: $cpu: expected the FPU with soft-float calls:"; echo "$attrs"; exit 1; } ;;
    hard) grep -q "Tag_ABI_VFP_args: VFP registers" <<<"$attrs" && grep -q "Tag_Advanced_SIMD_arch: NEON" <<<"$attrs" ||
      { echo "FAIL: $cpu: expected NEON and the hard-float ABI:"; echo "$attrs"; exit 1; } ;;
    esac
    echo "ok: -target=arm -mcpu=$cpu: $arch, $fp float"
  done ;;
emit-bundle-made) # -emit-bundle makes its folder and parents, as Glow users expect
  "$mc" -model="$relu" -emit-bundle="$work/new/deeper" -target=arm -mcpu=cortex-m4 -float-abi=hard \
    -network-name=relu >"$work/out" 2>&1 || { echo "FAIL: compile failed:"; cat "$work/out"; exit 1; }
  [ -s "$work/new/deeper/relu.o" ] || { echo "FAIL: no $work/new/deeper/relu.o"; exit 1; }
  file=$(od -An -tx1 -j18 -N2 "$work/new/deeper/relu.o" | tr -d ' ')
  [ "$file" = 2800 ] || { echo "FAIL: -target=arm -mcpu=cortex-m4 made e_machine $file, not ARM (0x28)"; exit 1; }
  echo "ok: -emit-bundle made new/deeper; -target=arm -mcpu=cortex-m4 gave an ARM object" ;;
emit-bundle-removed) # a failed compile leaves no folder it made
  printf 'not a model' >"$work/bad.onnx"
  expect_fail "bad.onnx.*not a valid ONNX model" "$mc" -model="$work/bad.onnx" -emit-bundle="$work/made/here"
  [ ! -e "$work/made" ] || { echo "FAIL: the failed compile left $work/made"; exit 1; }
  echo "ok: nothing left" ;;
remote-cache-env) # GLOWC_REMOTE_CACHE is -remote-cache's environment form, checked as the option is
  GLOWC_REMOTE_CACHE=ftp://127.0.0.1/x expect_fail "^GLOWC_REMOTE_CACHE: error: .*http" \
    "$mc" -model="$relu" -emit-bundle="$work/b"
  [ ! -e "$work/b" ] || { echo "FAIL: a refused GLOWC_REMOTE_CACHE left $work/b"; exit 1; }
  key1=$("$mc" -model="$relu" -emit-bundle="$work/b" -print-cache-key)
  key2=$(GLOWC_REMOTE_CACHE=http://127.0.0.1:9/glowc "$mc" -model="$relu" -emit-bundle="$work/b" -print-cache-key)
  [ "$key1" = "$key2" ] || { echo "FAIL: the remote cache's URL changed the key"; exit 1; }
  echo "ok: the same key with and without a remote cache" ;;
*) echo "unknown case $case_name"; exit 2 ;;
esac
