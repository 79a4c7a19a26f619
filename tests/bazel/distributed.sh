#!/usr/bin/env bash
# Remote execution (issue 25): Bazel's reference Remote Execution API worker, compiled here
# from Debian's bazel-bootstrap-source, runs glowc's actions in its linux-sandbox on loopback.
# The digits example (float, int8 through glow_profile, zstd weights), a graph-pass plugin
# bundle and the aarch64 cross build are built remotely with nothing local, then checked:
# the bundles and the compiler itself byte-identical to a local build, the programs' predictions,
# a fresh output base served wholly from the remote cache, and that the sandbox bites (a
# test-only workspace whose actions read undeclared files fails). Then the faults: a restarted
# worker with an empty CAS recompiles to the same bytes; a worker killed mid-build fails the
# build (--remote_local_fallback=false) or is fallen back from (=true); a worker whose CAS
# disk is full fails the build, saying so. No process is left behind.
#   distributed.sh [source-dir]
#   GLOWC_KEEP_DISTRIBUTED_DIR=1 keeps the temporary folder (logs, CAS, output bases).
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/bazel/common.sh"
src=$(cd "$src" && pwd -P)
cd "$src"

worker_src=/usr/src/bazel-bootstrap/src/tools/remote/src/main/java
jar=/usr/share/bazel/A-server.jar
linux_sandbox=/usr/libexec/x86_64-linux-gnu/bazel/linux-sandbox
missing=()
[ -d "$worker_src" ] || missing+=("$worker_src (apt-get install bazel-bootstrap-source)")
[ -f "$jar" ] || missing+=("$jar (bazel-bootstrap)")
[ -x "$linux_sandbox" ] || missing+=("$linux_sandbox (bazel-bootstrap)")
for tool in java javac python3 pgrep; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "skipped: no remote worker to run (missing: ${missing[*]})"
  exit 77
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/glowc-distributed.XXXXXX")
dir=$(cd "$dir" && pwd -P)
# The worker's files (worker-*/) and the client's (local/: output bases, bites workspace) apart:
# local/ is hidden from the worker's actions, as a real cluster's workers never see the client.
mkdir -p "$dir/local"
output_bases=()
worker_pid=
cleanup() {
  local rc=$?
  if [ -n "$worker_pid" ]; then
    kill -9 "$worker_pid" 2>/dev/null || true
    wait "$worker_pid" 2>/dev/null || true
  fi
  cd "$src"
  for ob in "${output_bases[@]}"; do
    bazel --output_user_root="$bazel_root" --output_base="$ob" shutdown >/dev/null 2>&1 || true
  done
  bz shutdown >/dev/null 2>&1 || true
  if [ -n "${GLOWC_KEEP_DISTRIBUTED_DIR-}" ]; then
    echo "kept $dir"
  else
    chmod -R u+w "$dir" 2>/dev/null || true
    rm -rf "$dir"
  fi
  exit "$rc"
}
trap cleanup EXIT

# Wall time of each phase, printed as it ends.
phase_start=$EPOCHREALTIME
phase() {
  local now=$EPOCHREALTIME
  awk -v a="$phase_start" -v b="$now" -v n="$1" 'BEGIN { printf "phase %s: %.1f s\n", n, b - a }'
  phase_start=$now
}
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- The worker: its 11 sources against the jar of the installed Bazel (the same version). ---
javac -nowarn -d "$dir/classes" -cp "$jar" $(find "$worker_src" -name '*.java') 2>"$dir/javac.log" || {
  cat "$dir/javac.log" >&2
  exit 1
}
# --sandboxing extracts linux-sandbox from main/tools/ on its classpath.
mkdir -p "$dir/sandbox/main/tools"
ln -s "$linux_sandbox" "$dir/sandbox/main/tools/linux-sandbox"

# What the worker's actions must not see (each an empty tmpfs in their sandbox): the source
# tree, Bazel's output roots and the client's files (an action reading them by absolute path
# works on one machine only), and /usr/local (host extras, e.g. a CUDA install that clang
# would pick up), unless the C compiler lives there.
hidden=()
hide() {
  local p h
  p=$(cd "$1" 2>/dev/null && pwd -P) || return 0
  case "$dir/" in "$p"/*) echo "not hiding $p from the worker: the test's folder is in it"; return 0 ;; esac
  for h in "${hidden[@]}"; do case "$p/" in "$h"/*) return 0 ;; esac; done
  hidden+=("$p")
}
hide "$src"
hide "$bazel_root"
hide "$dir/local"
case "$(readlink -f "$(command -v gcc || echo /usr/bin/gcc)")" in /usr/local/*) ;; *) hide /usr/local ;; esac

# start_worker <name> [cas tmpfs size]: a worker with a fresh CAS and work folder on a free
# port ($port, $worker_pid, $worker_dir); with a size, its CAS is a tmpfs of that size,
# mounted in a mount namespace of its own (gone with the worker).
start_worker() {
  worker_dir=$dir/worker-$1
  mkdir -p "$worker_dir/work" "$worker_dir/cas"
  port=$(free_port)
  local cmd=(java -cp "$dir/classes:$dir/sandbox:$jar" com.google.devtools.build.remote.worker.RemoteWorker
    --listen_port="$port" --work_path="$worker_dir/work" --cas_path="$worker_dir/cas"
    --pid_file="$worker_dir/pid" --sandboxing --sandboxing_block_network)
  local h
  for h in "${hidden[@]}"; do cmd+=(--sandboxing_tmpfs_dir="$h"); done
  if [ -n "${2-}" ]; then
    # unshare execs (no fork): $! is the worker's PID.
    cmd=("${mount_ns[@]}" sh -c 'mount -t tmpfs -o size="$0" glowc-worker-cas "$1" && shift && exec "$@"'
      "$2" "$worker_dir/cas" "${cmd[@]}")
  fi
  "${cmd[@]}" >"$worker_dir/log" 2>&1 &
  worker_pid=$!
  local i
  for i in $(seq 600); do
    [ -s "$worker_dir/pid" ] && return 0
    kill -0 "$worker_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "the remote worker did not start; its log:" >&2
  cat "$worker_dir/log" >&2
  exit 1
}
stop_worker() {
  kill "$worker_pid" 2>/dev/null || true
  wait "$worker_pid" 2>/dev/null || true
  worker_pid=
}
# kill_worker_after <n>: SIGKILL the worker once n actions have reached it (their folders in
# its work path), i.e. in the middle of the build, and say so in $dir/killed; run in the
# background, and stop it after the build (end_kill).
kill_worker_after() {
  rm -f "$dir/killed"
  local seen=" " d
  while kill -0 "$worker_pid" 2>/dev/null; do
    for d in "$worker_dir/work"/*; do
      d=${d##*/}
      case "$d" in linux-sandbox | upload | '*') continue ;; esac
      case "$seen" in *" $d "*) ;; *) seen="$seen$d " ;; esac
    done
    if [ "$(wc -w <<<"$seen")" -ge "$1" ]; then
      kill -9 "$worker_pid"
      echo "killed the worker after $(wc -w <<<"$seen") actions had reached it" | tee "$dir/killed"
      return 0
    fi
    sleep 0.02
  done
}

# end_kill: after the build, stop the killer and reap the worker; fails unless it was killed.
end_kill() {
  kill "$killer" 2>/dev/null || true
  wait "$killer" 2>/dev/null || true
  [ -f "$dir/killed" ] || { echo "the build was over before its worker could be killed" >&2; exit 1; }
  wait "$worker_pid" 2>/dev/null || true
  worker_pid=
}

# rbz <output base> <command> <args>: Bazel in the workspace with its own output base (the
# install base shared with the other tests).
rbz() {
  local ob=$1
  shift
  case " ${output_bases[*]} " in *" $ob "*) ;; *) output_bases+=("$ob") ;; esac
  (cd "${ws:-$src}" && bazel --output_user_root="$bazel_root" --output_base="$ob" --max_idle_secs=60 "$@")
}
# Remote only: every spawn to the worker (genrules included: Bazel 4's --genrule_strategy is
# unset, so they follow --spawn_strategy), no local fallback, no disk cache.
remote_flags() {
  echo --symlink_prefix=/ --color=no --curses=no --noshow_progress --verbose_failures \
    --spawn_strategy=remote --remote_executor=grpc://127.0.0.1:$port --remote_local_fallback=false
}
# processes <log>: Bazel's final "N processes: ..." summary.
processes() { grep -o '[0-9]* processes: .*' "$1" | tail -1; }
# only_kinds <summary> <kind>...: every process of the summary ("N processes: 21 internal,
# 350 remote.") of one of these kinds ("internal": inside Bazel, as symlink trees).
only_kinds() {
  local rest=${1#*processes: } part k ok
  shift
  IFS=, read -ra parts <<<"${rest%.}"
  for part in "${parts[@]}"; do
    part=${part# }
    k=${part#* }
    ok=0
    for want in "$@"; do [ "$k" != "$want" ] || ok=1; done
    [ "$ok" -eq 1 ] || return 1
  done
}

targets=(//examples/digits:digits-classify //examples/digits:digits-classify-int8
  //examples/digits:digits-classify-zst //examples/pass-fuse-layernorm:layernorm_mlp_fused)
# What is compared with the local build: every bundle file, the profile, and the tools built
# on the worker for the execution platform (the compiler, the profiler, the plugin).
bundles=(examples/digits/digits_bundle.bundle examples/digits/digits_int8.bundle
  examples/digits/digits_zst.bundle examples/pass-fuse-layernorm/layernorm_mlp_fused.bundle)
cross=1
for f in /usr/bin/aarch64-linux-gnu-gcc /usr/aarch64-linux-gnu/include/stdio.h; do [ -e "$f" ] || cross=0; done
command -v qemu-aarch64 >/dev/null || cross=0
[ "$cross" -eq 1 ] || echo "skipped: the aarch64 cross build (no aarch64-linux-gnu-gcc, its libc or qemu-aarch64)"
phase "compile the worker"

# --- 1. The remote build, cold: a fresh worker, a fresh output base. ---
start_worker 1
phase "start the worker"
# aarch64 first: the exec tools' actions are keyed anew in each configuration (and found in the
# worker's cache the second time), and ob1's tools must be the host build's for the faults below.
ob1=$dir/local/ob1
[ "$cross" -eq 0 ] || rbz "$ob1" build $(remote_flags) --config=aarch64 //examples/digits:digits-classify \
  >"$dir/remote1-aarch64.log" 2>&1 || { cat "$dir/remote1-aarch64.log" >&2; exit 1; }
phase "remote build, aarch64 (cold)"
rbz "$ob1" build $(remote_flags) "${targets[@]}" >"$dir/remote1.log" 2>&1 || { cat "$dir/remote1.log" >&2; exit 1; }
phase "remote build, host"
for log in "$dir/remote1.log" $([ "$cross" -eq 0 ] || echo "$dir/remote1-aarch64.log"); do
  line=$(processes "$log")
  echo "remote build ($(basename "$log" .log)): $line"
  if ! only_kinds "$line" internal remote "remote cache hit"; then
    echo "expected every process to run on the worker or come from its cache: $line" >&2
    exit 1
  fi
done
echo "the worker's CAS after the cold build: $(du -sh "$worker_dir/cas" | cut -f1)"
bin1=$(rbz "$ob1" info $(remote_flags) bazel-bin 2>/dev/null)
exec1=$(dirname "$(dirname "$bin1")")/$(cd "$(dirname "$bin1")/.." && ls -d k8-opt-exec-* | head -1)/bin
[ "$cross" -eq 0 ] || bin1_cross=$(rbz "$ob1" info $(remote_flags) --config=aarch64 bazel-bin 2>/dev/null)

# --- 2. The same targets built locally (the shared output root, as the other Bazel tests). ---
bz build "${bz_build_flags[@]}" "${targets[@]}" >"$dir/local.log" 2>&1 || { cat "$dir/local.log" >&2; exit 1; }
[ "$cross" -eq 0 ] || bz build "${bz_build_flags[@]}" --config=aarch64 //examples/digits:digits-classify \
  >"$dir/local-aarch64.log" 2>&1 || { cat "$dir/local-aarch64.log" >&2; exit 1; }
binl=$(bz info "${bz_build_flags[@]}" bazel-bin)
execl=$(dirname "$binl")/../$(basename "$(dirname "$exec1")")/bin
[ "$cross" -eq 0 ] || binl_cross=$(bz info "${bz_build_flags[@]}" --config=aarch64 bazel-bin)
phase "local build"

# same_files <remote bin> <local bin> <path>...: each path (a file or a folder's files) the same
# bytes in both trees.
same_files() {
  local rb=$1 lb=$2 p f n=0
  shift 2
  for p in "$@"; do
    [ -e "$rb/$p" ] || { echo "the remote build has no $p" >&2; return 1; }
    while read -r f; do
      cmp "$rb/$p$f" "$lb/$p$f" || { echo "$p$f differs between the remote and the local build" >&2; return 1; }
      n=$((n + 1))
    done < <(if [ -d "$rb/$p" ]; then (cd "$rb/$p" && find . -type f | sed 's/^\.//' | sort); else echo; fi)
    if [ -d "$rb/$p" ] && [ "$(cd "$rb/$p" && find . -type f | sort)" != "$(cd "$lb/$p" && find . -type f | sort)" ]; then
      echo "$p: the remote and the local build wrote different files" >&2
      return 1
    fi
  done
  echo "$n files byte-identical"
}
echo "bundles and profile, remote against local: $(same_files "$bin1" "$binl" "${bundles[@]}" examples/digits/digits_profile.yml)"
echo "the tools built on the worker, against local: $(same_files "$exec1" "$execl" compiler/driver/model-compiler \
  compiler/driver/model-profiler examples/pass-fuse-layernorm/libglowc-pass-fuse-layernorm.so)"
[ "$cross" -eq 0 ] ||
  echo "aarch64 bundle, remote against local: $(same_files "$bin1_cross" "$binl_cross" examples/digits/digits_bundle.bundle)"

# run_programs <bin> [cross bin]: the remotely built programs' predictions.
run_programs() {
  local b=$1/examples/digits
  echo "float: $(check_predictions "$("$b/digits-classify" "$b/digits_bundle.bundle/digits.weights.bin")" "$src/examples/digits/expected.txt")"
  echo "int8:  $(check_predictions "$("$b/digits-classify-int8" "$b/digits_int8.bundle/digits.weights.bin")" "$src/examples/digits/expected.txt")"
  echo "zst:   $(check_predictions "$("$b/digits-classify-zst" "$b/digits_zst.bundle/digits.weights.zst")" "$src/examples/digits/expected.txt")"
  if [ -n "${2-}" ]; then
    b=$2/examples/digits
    echo "aarch64 (qemu-aarch64): $(check_predictions "$(qemu-aarch64 -L /usr/aarch64-linux-gnu "$b/digits-classify" \
      "$b/digits_bundle.bundle/digits.weights.bin")" "$src/examples/digits/expected.txt")"
  fi
}
run_programs "$bin1" "${bin1_cross-}"
phase "compare and run"

# --- 3. A second, fresh output base: every remote-able process a remote cache hit. Another
# client PATH too, as on another machine (.bazelrc's --incompatible_strict_action_env keeps
# it out of the actions' keys).
ob2=$dir/local/ob2
mkdir -p "$dir/local/path"
PATH=$dir/local/path:$PATH rbz "$ob2" build $(remote_flags) "${targets[@]}" >"$dir/remote2.log" 2>&1 ||
  { cat "$dir/remote2.log" >&2; exit 1; }
[ "$cross" -eq 0 ] || PATH=$dir/local/path:$PATH rbz "$ob2" build $(remote_flags) --config=aarch64 \
  //examples/digits:digits-classify >"$dir/remote2-aarch64.log" 2>&1 || { cat "$dir/remote2-aarch64.log" >&2; exit 1; }
for log in "$dir/remote2.log" $([ "$cross" -eq 0 ] || echo "$dir/remote2-aarch64.log"); do
  line=$(processes "$log")
  echo "second output base ($(basename "$log" .log)): $line"
  if ! only_kinds "$line" internal "remote cache hit" || ! grep -q "remote cache hit" <<<"$line"; then
    echo "expected every process to be a remote cache hit: $line" >&2
    exit 1
  fi
done
rbz "$ob2" shutdown
phase "second output base, from the remote cache"

# --- 4. The sandbox bites: a test-only workspace whose genrules read what they do not declare. ---
ws=$dir/local/bites
mkdir -p "$ws"
touch "$ws/WORKSPACE"
echo declared >"$ws/declared.txt"
echo sibling >"$ws/sibling.txt"
cat >"$ws/BUILD" <<EOT
# Only declared.txt is an input of these.
genrule(name = "declared", srcs = ["declared.txt"], outs = ["declared.out"], cmd = "cat \$< > \$@")
# A source of the package, not in srcs.
genrule(name = "sibling", srcs = ["declared.txt"], outs = ["sibling.out"], cmd = "cat \$< sibling.txt > \$@")
# A file of the glowc source tree, by absolute path.
genrule(name = "absolute", srcs = ["declared.txt"], outs = ["absolute.out"],
        cmd = "cat \$< $src/examples/digits/expected.txt > \$@")
# A write outside the action's folder.
genrule(name = "escape", srcs = ["declared.txt"], outs = ["escape.out"], cmd = "cat \$< > \$@ && date > $dir/escaped")
EOT
obb=$dir/local/ob-bites
flags=(--symlink_prefix=/ --color=no --curses=no --noshow_progress)
if rbz "$obb" build $(remote_flags) --keep_going //:all >"$dir/bites.log" 2>&1; then
  echo "the genrules reading undeclared files built on the worker: its sandbox does not bite" >&2
  exit 1
fi
echo "on the worker, sandboxed:"
for want in "genrule //:sibling failed" "sibling.txt: No such file or directory" \
  "genrule //:absolute failed" "$src/examples/digits/expected.txt: No such file or directory" \
  "genrule //:escape failed" "$dir/escaped: Read-only file system"; do
  if ! grep -qF "$want" "$dir/bites.log"; then
    echo "expected '$want' in the build's log:" >&2
    cat "$dir/bites.log" >&2
    exit 1
  fi
done
grep -E '^ERROR: .*genrule|No such file|Read-only' "$dir/bites.log" | sed 's/error executing command .*/.../; s/^/  /'
[ -f "$(rbz "$obb" info "${flags[@]}" bazel-bin 2>/dev/null)/declared.out" ] || { echo "//:declared did not build" >&2; exit 1; }
[ ! -e "$dir/escaped" ] || { echo "//:escape wrote $dir/escaped from the worker's sandbox" >&2; exit 1; }
# Outside a sandbox the reads work: the bugs are invisible there.
rbz "$obb" build "${flags[@]}" --spawn_strategy=local //:sibling //:absolute >"$dir/bites-local.log" 2>&1 ||
  { cat "$dir/bites-local.log" >&2; exit 1; }
echo "the same reads unsandboxed, locally: they build ($(processes "$dir/bites-local.log"))"
rbz "$obb" shutdown
unset ws
phase "sandbox bites"

# --- 5. Faults. A restarted worker, its CAS empty: the next build recompiles, the same bytes. ---
# In the cold build's output base, the bundles' files deleted: Bazel runs their actions again,
# on a worker that lost every blob, so it must send the compiler, the kernels and the model
# again. (A fresh output base would only repeat the cold build, 250 s in CI.)
# drop_bundles: delete the files of every bundle and the profile in ob1 (their actions and
# the profiler's run again: about ten).
drop_bundles() {
  local b
  for b in "${bundles[@]}"; do rm -f "$bin1/$b"/*; done
  rm -f "$bin1/examples/digits/digits_profile.yml"
}
stop_worker
start_worker 2
rm -f "$bin1/examples/digits/digits_bundle.bundle"/*
rbz "$ob1" build $(remote_flags) //examples/digits:digits-classify >"$dir/restart.log" 2>&1 ||
  { cat "$dir/restart.log" >&2; exit 1; }
line=$(processes "$dir/restart.log")
echo "restarted worker, empty CAS, the bundle's files deleted: $line"
if ! only_kinds "$line" internal remote || ! grep -Eq ' [1-9][0-9]* remote' <<<"$line"; then
  echo "expected the bundle's action to run again on the worker: $line" >&2
  exit 1
fi
echo "its bundle against local: $(same_files "$bin1" "$binl" examples/digits/digits_bundle.bundle)"
phase "restarted worker: the rebuild"

# The worker killed mid-build (the bundles and the profile again).
drop_bundles
kill_worker_after 3 &
killer=$!
if rbz "$ob1" build $(remote_flags) "${targets[@]}" >"$dir/killed.log" 2>&1; then
  end_kill
  echo "the build succeeded with its worker killed and --remote_local_fallback=false" >&2
  exit 1
else
  rc=$?
fi
end_kill
grep -E '^ERROR: ' "$dir/killed.log" | head -3 | sed 's/^/  /'
# Bazel's remote error reads one of three ways, depending on where the kill lands: UNAVAILABLE
# from an Execute call, or, when the worker died while Bazel was uploading an action's inputs
# to its CAS, "N errors during bulk transfer" (seen in CI) or "Error while uploading artifact".
if [ "$rc" -ne 34 ] || ! grep -Eq "failed: \(Exit 34\): (.*UNAVAILABLE|[0-9]+ errors? during bulk transfer|Error while uploading artifact)" "$dir/killed.log"; then
  echo "expected a remote error (exit 34, UNAVAILABLE or a failed upload); exit $rc, log:" >&2
  cat "$dir/killed.log" >&2
  exit 1
fi
echo "--remote_local_fallback=false: the build failed (exit $rc, Bazel's remote error)"
phase "worker killed, no fallback"

# Again with --remote_local_fallback=true: the rest runs locally, the same bytes. No retries
# against the dead worker (each would back off for seconds).
start_worker 3
drop_bundles
kill_worker_after 3 &
killer=$!
rbz "$ob1" build $(remote_flags) --remote_local_fallback=true --remote_retries=0 "${targets[@]}" \
  >"$dir/fallback.log" 2>&1 || { end_kill; cat "$dir/fallback.log" >&2; exit 1; }
end_kill
line=$(processes "$dir/fallback.log")
echo "--remote_local_fallback=true: the build succeeded: $line"
grep -Eq ' [1-9][0-9]* local' <<<"$line" || { echo "expected processes run locally after the kill: $line" >&2; exit 1; }
echo "bundles and profile against the local build: $(same_files "$bin1" "$binl" "${bundles[@]}" examples/digits/digits_profile.yml)"
run_programs "$bin1"
phase "worker killed, local fallback"

# A worker whose CAS disk is full (a 1 MiB tmpfs in the worker's own mount namespace: the
# blobs of the first actions overflow it). Its work folder stays on the big disk: with both
# on the tmpfs, the actions themselves fail too, and their stderr, written there, is lost.
mount_ns=()
for ns in "unshare --mount" "unshare --user --map-root-user --mount"; do
  probe=$dir/probe
  mkdir -p "$probe"
  if $ns sh -c 'mount -t tmpfs -o size=64k glowc-probe "$0"' "$probe" 2>/dev/null; then
    read -ra mount_ns <<<"$ns"
    break
  fi
done
if [ ${#mount_ns[@]} -eq 0 ]; then
  echo "skipped: the out-of-disk fault (cannot mount a tmpfs in a mount namespace of its own here)"
else
  start_worker 4 1m
  rbz "$ob1" clean >/dev/null 2>&1
  if rbz "$ob1" build $(remote_flags) //examples/digits:digits_bundle >"$dir/full.log" 2>&1; then
    echo "the build succeeded with its worker's disk full" >&2
    exit 1
  else
    rc=$?
  fi
  grep -E '^ERROR: |No space left' "$dir/full.log" | head -3 | sed 's/^/  /'
  if [ "$rc" -ne 34 ] || ! grep -q "No space left on device" "$dir/full.log"; then
    echo "expected a remote error (exit 34) saying 'No space left on device'; exit $rc, log:" >&2
    cat "$dir/full.log" >&2
    exit 1
  fi
  echo "worker out of disk (${mount_ns[*]}, 1 MiB CAS): the build failed (exit $rc) saying why"
  stop_worker
fi
phase "worker out of disk"

# --- Nothing left running: no worker, no sandboxed action, nothing working in the folder. ---
rbz "$ob1" shutdown
left=$(pgrep -f "$dir/(worker|classes)" || true)
for p in /proc/[0-9]*; do
  case "$(readlink "$p/cwd" 2>/dev/null)" in "$dir"/worker-*) left="$left ${p#/proc/}" ;; esac
done
if [ -n "${left// /}" ]; then
  echo "processes left behind:" >&2
  ps -o pid,args -p $left >&2 || true
  exit 1
fi
echo "no worker or action process left"
