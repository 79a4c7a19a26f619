#!/usr/bin/env bash
# One graph-pass plugin case (tests/plugins/CMakeLists.txt).
#   run-plugin-case.sh <case> <model-compiler> <test plugins dir> <fuse-layernorm plugin>
#                      <summary plugin> <layernorm-mlp.onnx> <model-profiler>
# Bad cases must fail (exit non-zero) with their message and leave the bundle folder empty.
set -u
case=$1 mc=$2 dir=$3 fuse=$4 summary=$5 model=$6 profiler=$7
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

# <expected message (grep -E)> <options...>: the compile fails saying it and writes nothing.
refused() {
  local want=$1
  shift
  local msg
  msg=$("$mc" -model="$model" -emit-bundle="$out" "$@" 2>&1) && fail "accepted: $* (said: $msg)"
  echo "$msg"
  grep -Eq -- "$want" <<<"$msg" || fail "the message does not say /$want/"
  [ -z "$(ls -A "$out")" ] || fail "files were left behind: $(ls -A "$out")"
  echo "ok: refused, nothing written"
}

# <out dir> [options]: compiles with -verbose; prints the messages.
compile() {
  local o=$1
  shift
  mkdir -p "$o"
  "$mc" -model="$model" -emit-bundle="$o" -verbose "$@" 2>&1 || fail "compile failed: $*"
}
nodes() { sed -n 's/.* \([0-9]*\) nodes after optimization/\1/p' <<<"$1"; }

case $case in
wrong-abi) refused "built for glowc pass ABI version 999; this glowc .* has version 1: rebuild it" \
             -load-pass="$dir/wrong-abi.so" ;;
no-init) refused "no glowc_pass_plugin_init" -load-pass="$dir/no-init.so" ;;
not-a-library)
  echo "not a library" >"$work/fake.so"
  refused "fake.so: error: -load-pass: cannot load the plugin" -load-pass="$work/fake.so" ;;
missing-file) refused "nothere.so: error: -load-pass: no such plugin file" -load-pass="$work/nothere.so" ;;
crash) refused "bad-passes.so \(pass crash\): error: the pass crashed \(SIGSEGV\); nothing was written" \
         -load-pass="$dir/bad-passes.so" -pass=crash ;;
fails) refused "\(pass fails\): error: this model has [0-9]+ nodes.*" -load-pass="$dir/bad-passes.so" -pass=fails ;;
silent) refused "\(pass silent\): error: the pass failed \(returned 7 without a message\)" \
          -load-pass="$dir/bad-passes.so" -pass=silent ;;
misuse) refused "\(pass misuse\): error: node_erase: node 0 .* is read by node" \
          -load-pass="$dir/bad-passes.so" -pass=misuse ;;
cycle) refused "\(pass cycle\): error: .*cycle" -load-pass="$dir/bad-passes.so" -pass=cycle ;;
reshape) refused "\(pass reshape\): error: value_replace_uses: graph output 'output' is float\[2,8\]" \
           -load-pass="$dir/bad-passes.so" -pass=reshape ;;
unknown-pass) refused "-pass: error: no plugin pass 'nope' \(the loaded plugins have: fuse-layernorm\)" \
                -load-pass="$fuse" -pass=nope ;;
pass-without-plugin) refused "no plugin pass 'summary' \(load its plugin with -load-pass" -pass=summary ;;
duplicate-name) refused "cannot register pass 'summary': a pass of that name is loaded already" \
                  -load-pass="$summary" -load-pass="$summary" ;;
print-passes)
  list=$("$mc" -print-passes -load-pass="$fuse" -load-pass="$summary" -pass=summary,fuse-layernorm) || fail "-print-passes failed"
  echo "$list"
  got=$(awk 'NR > 1 {print $1}' <<<"$list" | xargs)
  want="infer-fold fold-batchnorm fold-qdq summary fuse-layernorm fold-lookup materialize-outputs pack-weights dead-nodes quantize"
  want+=" fold-lookup pack-weights dead-nodes assert-quantized fuse-epilogue winograd pack-conv-weights fuse-conv-pool dead-nodes"
  [ "$got" = "$want" ] || fail "-print-passes lists '$got', want '$want'"
  grep -q "fuse-layernorm .*plugin .*\[$fuse\]" <<<"$list" || fail "the plugin pass does not name its library" ;;
fuse-changes-bundle) # layer norms of 9 and 7 nodes (the second without scale and bias) become 2: 14 fewer
  base=$(compile "$work/base")
  fused=$(compile "$work/fused" -load-pass="$fuse" -pass=fuse-layernorm)
  echo "$fused" | grep -v "time:\|memory:"
  grep -q "(pass fuse-layernorm): fused 2 layer normalizations" <<<"$fused" || fail "the plugin did not report 2 fusions"
  b=$(nodes "$base") f=$(nodes "$fused")
  [ -n "$b" ] && [ -n "$f" ] && [ $((b - f)) = 14 ] || fail "$b nodes without the plugin, $f with it: want 14 fewer"
  cmp -s "$work/base/layernorm_mlp.o" "$work/fused/layernorm_mlp.o" && fail "the fused bundle's object is the same"
  # The interface stays: the header differs only in the memory sizes (smaller activations).
  iface() { grep -Ev 'MEM_SIZE|Memory:|lower bound' "$1"; }
  diff <(iface "$work/base/layernorm_mlp.h") <(iface "$work/fused/layernorm_mlp.h") || fail "the bundle's interface changed"
  echo "ok: $b nodes without the plugin, $f with it; the interface is the same" ;;
summary-changes-nothing)
  compile "$work/base" >/dev/null
  msg=$(compile "$work/summary" -load-pass="$summary")
  grep -q "(pass summary): 19 nodes, 9 kinds of op" <<<"$msg" || { echo "$msg"; fail "no summary of 19 nodes"; }
  grep -q "(pass summary):   ReduceMean *4" <<<"$msg" || fail "the summary does not count 4 ReduceMean"
  for f in "$work"/base/*; do cmp "$f" "$work/summary/$(basename "$f")" || fail "$(basename "$f") differs"; done
  echo "ok: the summary printed; every bundle file is the same bytes" ;;
order) # -pass runs in the order given
  a=$(compile "$work/a" -load-pass="$fuse" -load-pass="$summary" -pass=summary,fuse-layernorm)
  b=$(compile "$work/b" -load-pass="$fuse" -load-pass="$summary" -pass=fuse-layernorm,summary)
  grep -q "(pass summary):   LayerNormalization" <<<"$a" && fail "summary ran after fuse-layernorm"
  grep -q "(pass summary):   LayerNormalization *2" <<<"$b" || fail "summary did not run after fuse-layernorm"
  cmp "$work/a/layernorm_mlp.o" "$work/b/layernorm_mlp.o" || fail "summary changed the bundle"
  echo "ok: the passes ran in -pass order" ;;
cache) # the plugin's bytes and the -pass list are part of the cache key
  c=$work/cache
  compile "$work/1" -cache-dir="$c" | grep "cache" || true
  m=$(compile "$work/2" -cache-dir="$c" -load-pass="$fuse")
  grep -q "cache hit" <<<"$m" && fail "a compile with a plugin hit the entry of one without"
  m=$(compile "$work/3" -cache-dir="$c" -load-pass="$fuse")
  grep -q "cache hit" <<<"$m" || fail "the same plugin compile missed the cache"
  cmp "$work/2/layernorm_mlp.o" "$work/3/layernorm_mlp.o" || fail "the cached bundle differs"
  cp "$fuse" "$work/copy.so" && printf 'x' >>"$work/copy.so"
  m=$(compile "$work/4" -cache-dir="$c" -load-pass="$work/copy.so")
  grep -q "cache hit" <<<"$m" && fail "a changed plugin file hit the old entry"
  echo "ok: plugins key the cache" ;;
profiler) # model-profiler runs the same plugin passes: the fused graph's profile has no ReduceMean values
  seq -f '%.2f' -1.5 0.1 1.6 | head -32 >"$work/sample.txt"
  "$profiler" -model="$model" -input-dataset=input,rawtxt,"$work/sample.txt" -dump-profile="$work/base.yml" || fail "profiling failed"
  "$profiler" -model="$model" -input-dataset=input,rawtxt,"$work/sample.txt" -dump-profile="$work/fused.yml" \
    -load-pass="$fuse" || fail "profiling with the plugin failed"
  grep -q "ReduceMean" "$work/base.yml" || fail "the profile without the plugin has no ReduceMean value"
  grep -q "ReduceMean" "$work/fused.yml" && fail "the profile with the plugin still has ReduceMean values"
  # and the compiler takes that profile with the same plugin, not without it
  "$mc" -model="$model" -emit-bundle="$out" -load-profile="$work/fused.yml" -load-pass="$fuse" || fail "int8 compile failed"
  echo "ok: profiles follow the plugin passes" ;;
*) fail "unknown case $case" ;;
esac
