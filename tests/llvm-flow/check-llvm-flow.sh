#!/usr/bin/env bash
# Glow's LLVM code-generation options, one case each, on examples/digits/digits.onnx:
# what each option changes in the bundle, on stdout or in the object's ELF.
#   check-llvm-flow.sh <model-compiler> <digits.onnx> <link command: {obj} {exe}> <llvm bin dir> <case>
# The LLVM tools (llc, opt, llvm-readelf) come from <llvm bin dir>; a case whose tool is
# missing says "skipped" and exits 77.
set -u
mc=$1 model=$2 link=$3 llvm=$4 case_name=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
need() { for t; do [ -x "$llvm/$t" ] || { echo "skipped: $llvm/$t not found"; exit 77; }; done; }

compile() { # <dir> <options...>: a digits bundle (dynamic API, network "digits") in <dir>
  local dir=$1; shift
  mkdir -p "$dir"
  "$mc" -model="$model" -emit-bundle="$dir" -network-name=digits -bundle-api=dynamic "$@" >"$dir.out" 2>"$dir.err" ||
    { cat "$dir.err"; fail "model-compiler $* failed"; }
}

run_bundle() { # <dir>: the digits logits of the bundle in <dir>, linked with print-digits
  local cmd=${link//\{obj\}/$1/digits.o}
  cmd=${cmd//\{exe\}/$1/print-digits}
  $cmd || fail "linking $1/digits.o failed"
  "$1/print-digits" "$1/digits.weights.bin" >"$1.logits" || fail "the bundle in $1 did not run"
}

same_logits() { # <a> <b>: each logit equal within 1e-5 relative (another optimizer may reassociate)
  paste -d' ' "$1.logits" "$2.logits" | awk '{ n = NF / 2; for (i = 1; i <= n; i++) {
      a = $i; b = $(i + n); d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); if (m < 1) m = 1;
      if (d > 1e-5 * m) { print "logit " i " of line " NR ": " a " vs " b; bad = 1 } } }
    END { exit bad }' || fail "$2's logits differ from $1's"
  [ "$(wc -l <"$1.logits")" = 10 ] || fail "$1.logits has not 10 lines"
}

readelf=$llvm/llvm-readelf
case $case_name in
save-asm) # <name>.s beside the object, with the entry; the object the same bytes as without it
  compile "$work/plain" -mcpu=baseline
  compile "$work/asm" -mcpu=baseline -llvm-save-asm
  [ -s "$work/asm/digits.s" ] || fail "-llvm-save-asm wrote no digits.s"
  grep -q '^digits:' "$work/asm/digits.s" || fail "digits.s has no label 'digits:' (the entry)"
  grep -Eq '\.globl[[:space:]]+digits$' "$work/asm/digits.s" || fail "digits.s does not export digits"
  cmp "$work/plain/digits.o" "$work/asm/digits.o" || fail "-llvm-save-asm changed digits.o"
  [ ! -e "$work/plain/digits.s" ] || fail "digits.s written without -llvm-save-asm"
  echo "ok: digits.s, $(wc -l <"$work/asm/digits.s") lines; digits.o unchanged" ;;
dump-llvm-ir) # the module before and after optimizations on stdout, as Glow prints them
  compile "$work/b" -mcpu=baseline -dump-llvm-ir
  out=$work/b.out
  before=$(grep -n '^LLVM module before optimizations:$' "$out" | cut -d: -f1)
  after=$(grep -n '^LLVM module after optimizations:$' "$out" | cut -d: -f1)
  [ -n "$before" ] && [ -n "$after" ] && [ "$before" -lt "$after" ] || fail "no 'before' then 'after' heading"
  tail -n +"$after" "$out" | grep -Eq '^define .*@digits\(' || fail "the optimized module has no define of @digits"
  [ -s "$work/b/digits.o" ] || fail "no digits.o"
  echo "ok: $(grep -c '^define' "$out") defines in $(wc -l <"$out") lines" ;;
dump-llvm-asm) # the assembly on stdout, the same the target machine writes for -llvm-save-asm
  compile "$work/b" -mcpu=baseline -dump-llvm-asm -llvm-save-asm
  grep -q '^digits:' "$work/b.out" || fail "no label 'digits:' in the dumped assembly"
  cmp "$work/b.out" "$work/b/digits.s" || fail "the dumped assembly is not digits.s"
  echo "ok: $(wc -l <"$work/b.out") lines of assembly" ;;
external-llc) # the object made by llc from the bitcode runs as the in-process one
  need llc
  compile "$work/plain" -mcpu=baseline
  compile "$work/llc" -mcpu=baseline -llvm-compiler="$llvm/llc" -llvm-save-asm
  grep -q '^digits:' "$work/llc/digits.s" || fail "llc's digits.s has no entry"
  run_bundle "$work/plain"
  run_bundle "$work/llc"
  same_logits "$work/plain" "$work/llc"
  echo "ok: llc's bundle gives the in-process bundle's logits$(cmp -s "$work/plain/digits.o" "$work/llc/digits.o" &&
    echo ' (the same object bytes)')" ;;
external-opt-llc) # opt -O3 then llc with an option, as Glow runs them
  need llc opt
  compile "$work/plain" -mcpu=baseline
  compile "$work/ext" -mcpu=baseline -llvm-opt="$llvm/opt" -llvm-compiler="$llvm/llc" -llvm-compiler-opt=-O2
  compile "$work/opt" -mcpu=baseline -llvm-opt="$llvm/opt" # opt alone: the object made in process
  for b in plain ext opt; do run_bundle "$work/$b"; done
  same_logits "$work/plain" "$work/ext"
  same_logits "$work/plain" "$work/opt"
  echo "ok: opt+llc and opt alone give the in-process logits" ;;
tool-fails) # a failing tool: an error naming it and its status, nothing in the bundle folder, no temporary left
  mkdir -p "$work/b" "$work/tmp"
  TMPDIR=$work/tmp "$mc" -model="$model" -emit-bundle="$work/b" -llvm-compiler=/bin/false >"$work/out" 2>"$work/err" &&
    fail "-llvm-compiler=/bin/false succeeded"
  grep -q "^-llvm-compiler: error: '/bin/false' failed (exit status 1)" "$work/err" ||
    { cat "$work/err"; fail "the error does not name /bin/false and its status"; }
  [ -z "$(ls -A "$work/b")" ] || fail "files left in the bundle folder: $(ls -A "$work/b")"
  [ -z "$(ls -A "$work/tmp")" ] || fail "temporary files left: $(ls -A "$work/tmp")"
  TMPDIR=$work/tmp "$mc" -model="$model" -emit-bundle="$work/b" -llvm-compiler="$work/no-such-llc" 2>"$work/err" &&
    fail "a missing -llvm-compiler succeeded"
  grep -q "^-llvm-compiler: error: cannot run '$work/no-such-llc': No such file" "$work/err" ||
    { cat "$work/err"; fail "a missing tool is not reported as such"; }
  [ -z "$(ls -A "$work/b")$(ls -A "$work/tmp")" ] || fail "files left behind"
  echo "ok: $(head -c 100 "$work/err")..." ;;
code-model) # x86-64 (PIC): the large code model reaches its data through the GOT with 64-bit offsets
  need llvm-readelf
  compile "$work/small" -target=x86_64-linux-gnu -mcpu=baseline
  compile "$work/large" -target=x86_64-linux-gnu -mcpu=baseline -bundle-code-model=large
  small=$("$readelf" -r "$work/small/digits.o" | grep -oE 'R_X86_64_[A-Z0-9_]+' | sort -u | tr '\n' ' ')
  large=$("$readelf" -r "$work/large/digits.o" | grep -oE 'R_X86_64_[A-Z0-9_]+' | sort -u | tr '\n' ' ')
  echo "small: $small; large: $large"
  [[ $small == *R_X86_64_PC32* && $small != *GOTOFF64* && $small != *GOTPC64* ]] ||
    fail "the small code model is not PC-relative"
  [[ $large == *R_X86_64_GOTOFF64* && $large == *R_X86_64_GOTPC64* ]] || fail "the large code model has no 64-bit GOT relocations" ;;
riscv-abi) # -mabi: lp64 (floats in integer registers) and lp64d in the ELF header's flags
  need llvm-readelf
  compile "$work/lp64" -target=riscv64-linux-gnu -mabi=lp64
  compile "$work/lp64d" -target=riscv64-linux-gnu -mabi=lp64d
  soft=$("$readelf" -h "$work/lp64/digits.o" | grep Flags)
  hard=$("$readelf" -h "$work/lp64d/digits.o" | grep Flags)
  echo "lp64: $soft"; echo "lp64d: $hard"
  [[ $hard == *double-float\ ABI* ]] || fail "lp64d is not the double-float ABI"
  [[ $soft != *double-float* && $soft != *single-float* ]] || fail "lp64 is a hardware float ABI"
  "$llvm/llvm-objdump" -d "$work/lp64/digits.o" | grep -Eq '\bf(add|mul|madd)\.s' ||
    fail "lp64 lost the FPU (only the calling convention should change)"
  mkdir -p "$work/bad"
  "$mc" -model="$model" -emit-bundle="$work/bad" -target=riscv64-linux-gnu -mabi=ilp32 2>"$work/err" &&
    fail "-mabi=ilp32 on riscv64 succeeded"
  grep -q "^-mabi: error: 'ilp32' is not an ABI of riscv64" "$work/err" || { cat "$work/err"; fail "bad -mabi message"; }
  [ -z "$(ls -A "$work/bad")" ] || fail "a bad -mabi left files" ;;
arm-float-abi) # Glow's -float-abi on a Cortex-M7: hard passes floats in VFP registers, soft in core registers,
  # both with the FPU; glowc's none has no FPU (software floats)
  need llvm-readelf llvm-objdump
  for abi in hard soft none; do
    compile "$work/$abi" -target=arm -mcpu=cortex-m7 -float-abi=$abi
    "$readelf" -A "$work/$abi/digits.o" | grep -A2 -E 'TagName: (FP_arch|ABI_VFP_args)$' | grep -oE '(TagName|Description): .*' |
      paste -sd' ' >"$work/$abi.attrs"
    fpu=$("$llvm/llvm-objdump" -d --mcpu=cortex-m7 "$work/$abi/digits.o" | grep -cE '\sv(fma|mla|add|mul)\.f32')
    echo "$abi: $(cat "$work/$abi.attrs"); $fpu FPU multiply-adds"
    case $abi in
    hard) grep -q 'ABI_VFP_args Description: AAPCS VFP' "$work/$abi.attrs" || fail "hard: not the VFP calling convention" ;;
    *) ! grep -q 'ABI_VFP_args' "$work/$abi.attrs" || fail "$abi: not the base (core register) calling convention" ;;
    esac
    case $abi in
    none) ! grep -q FP_arch "$work/$abi.attrs" && [ "$fpu" = 0 ] || fail "none: the FPU is used"
      "$readelf" -r "$work/$abi/digits.o" | grep -q __aeabi_fadd || fail "none: no software float calls" ;;
    *) grep -q FP_arch "$work/$abi.attrs" && [ "$fpu" -gt 0 ] || fail "$abi: the FPU is not used" ;;
    esac
  done ;;
api-verbose) # -bundle-api-verbose: the header's comment also lists the constant weights, as Glow's does
  compile "$work/plain" -mcpu=baseline
  compile "$work/verbose" -mcpu=baseline -bundle-api-verbose
  ! grep -q 'Constant weights' "$work/plain/digits.h" || fail "constants listed without -bundle-api-verbose"
  diff "$work/plain/digits.h" "$work/verbose/digits.h" | grep '^[<>]' | grep -v '^> //' &&
    fail "-bundle-api-verbose changed more than the comment"
  size=$(sed -n 's|^// Memory: constant weights \([0-9]*\) bytes.*|\1|p' "$work/verbose/digits.h")
  # each constant inside the area, after the one before it: offset >= the previous end
  sed -n 's|^//   "\(.*\)": \(.*\), offset \([0-9]*\), \([0-9]*\) bytes$|\3 \4 \1|p' "$work/verbose/digits.h" >"$work/c"
  awk -v size="$size" '$1 < end || $1 + $2 > size { print "bad: " $0; bad = 1 } { end = $1 + $2 }
    END { if (NR < 4) { print NR " constants"; bad = 1 } exit bad }' "$work/c" || fail "constants listed wrong"
  echo "ok: $(wc -l <"$work/c") constants in $size bytes, e.g. $(head -1 "$work/c")" ;;
*) fail "unknown case $case_name" ;;
esac
