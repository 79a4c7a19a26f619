#!/usr/bin/env bash
# Bad input to model-compiler: each case must exit non-zero, say what is wrong
# (stderr matched against a pattern naming the file, node or option), and leave
# no bundle file behind.
#   run-badinput.sh <model-compiler> <case>
set -u
mc=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
suite=$here/../../../shared/onnx-node-tests
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/out
mkdir -p "$out"
relu=$suite/test_relu/model.onnx

hostile() { python3 "$here/make-hostile.py" "$@" || { echo "FAIL: make-hostile.py $*"; exit 1; }; }
# tflite CASE: the .tflite file make-tflite.py writes for CASE, as -model; m.tflite names it in messages.
tflite() {
  python3 "$here/make-tflite.py" "$1" "$work/m.tflite" || { echo "FAIL: make-tflite.py $1"; exit 1; }
  args=(-model="$work/m.tflite" -emit-bundle="$out")
}

case $case_name in
missing-model)
  args=(-model="$work/no-such-model.onnx" -emit-bundle="$out")
  want="no-such-model.onnx.*(No such file|cannot)" ;;
truncated-model)
  head -c 100 "$here/../../examples/digits/digits.onnx" >"$work/truncated.onnx"
  args=(-model="$work/truncated.onnx" -emit-bundle="$out")
  want="truncated.onnx.*not a valid ONNX model" ;;
not-onnx)
  printf 'this is not a model\n' >"$work/text.onnx"
  args=(-model="$work/text.onnx" -emit-bundle="$out")
  want="text.onnx.*not a valid ONNX model" ;;
empty-model)
  : >"$work/empty.onnx"
  args=(-model="$work/empty.onnx" -emit-bundle="$out")
  want="empty.onnx" ;;
huge-initializer) # claims 2^40 floats with 4 bytes behind them (make-hostile.py): refused before any allocation
  args=(-model="$here/huge-initializer.onnx" -emit-bundle="$out")
  want="initializer 'w': raw_data has 4 bytes, but 1099511627776 float elements need 4398046511104" ;;
huge-constant-of-shape) # ConstantOfShape of 2^40 floats: over the 2^36-byte tensor limit
  args=(-model="$here/huge-constant-of-shape.onnx" -emit-bundle="$out")
  want="fill_huge \\(ConstantOfShape\\): error: output 'c' would be larger than 68719476736 bytes" ;;
reshape-overflow) # Reshape to [255, 2^57 - 1]: the product of the target shape overflows int64 (make-hostile.py)
  args=(-model="$here/reshape-overflow.onnx" -emit-bundle="$out")
  want="reshape_huge \\(Reshape\\): error: the target shape's product overflows 64 bits at entry 1" ;;
external-data) # an initializer whose bytes are "in" ../../../../etc/passwd (make-hostile.py)
  args=(-model="$here/external-data.onnx" -emit-bundle="$out")
  want="external-data.onnx: error: initializer 'w': data is stored in an external file, which glowc does not read" ;;
# Hostile sizes written when the test runs (make-hostile.py KIND N PATH), each refused within
# max_rss_mb of peak memory (the compiler's own footprint, its libraries and the file: 50-80 MB).
million-nodes) # 10^6 Relu nodes (25 MB): over GLOW_MAX_NODES, refused before decoding
  hostile many-nodes 1000000 "$work/m.onnx"
  args=(-model="$work/m.onnx" -emit-bundle="$out")
  max_rss_mb=160
  want="m.onnx: error: more than 65536 nodes" ;;
caffe2-million-ops) # the same as a Caffe2 predict_net
  hostile caffe2-many-ops 1000000 "$work/net"
  args=(-model="$work/net" -emit-bundle="$out" -model-input=data,float,[4])
  max_rss_mb=160
  want="predict_net.pb: error: more than 65536 ops" ;;
many-messages) # one input shape of 5*10^6 dimensions (20 MB), each a message protobuf-c would allocate
  hostile many-messages 5000000 "$work/m.onnx"
  args=(-model="$work/m.onnx" -emit-bundle="$out")
  max_rss_mb=160
  want="m.onnx: error: more than 4194304 protobuf messages" ;;
deep-attributes) # 10^5 levels of node -> graph attribute -> node (2.9 MB): subgraphs are kept as bytes, never decoded
  hostile deep-attributes 100000 "$work/d.onnx"
  args=(-model="$work/d.onnx" -emit-bundle="$out")
  max_rss_mb=160
  want="d.onnx:If_y: error: unsupported op 'If'.*control flow with subgraphs" ;;
profile-alias-bomb) # 10^4 YAML aliases of an entry of 10^5 counts: 10^9 values from 300 KB
  hostile alias-bomb 10000 "$work/p.yml"
  args=(-model="$relu" -emit-bundle="$out" -load-profile="$work/p.yml" -quantization-precision=Int8)
  max_rss_mb=160
  want="p.yml:3:3: error: alias '\\*e': a profile may not use YAML aliases" ;;
profile-huge-histogram) # one histogram of 2*10^6 counts (6 MB): over GLOW_PROFILE_MAX_BINS, refused as it is read
  hostile huge-histogram 2000000 "$work/p.yml"
  args=(-model="$relu" -emit-bundle="$out" -load-profile="$work/p.yml" -quantization-precision=Int8)
  max_rss_mb=160
  want="p.yml:8: error: a histogram has more than 1048576 counts" ;;
# TFLite files broken one way each (make-tflite.py): the message names the tensor or operator.
tflite-truncated) # the first 150 of 500 bytes
  tflite truncated
  want="m.tflite: error: not a valid .tflite file: reading the main subgraph \\(a table at byte [0-9]+ \\([0-9]+ bytes\\) lies outside the file \\(150 bytes\\)\\); the file is truncated or corrupt" ;;
tflite-wrong-identifier)
  tflite wrong-identifier
  want="m.tflite: error: not a TFLite model: the file identifier is 'TFL2', not 'TFL3'" ;;
tflite-vector-past-end) # tensor w's shape claims 2^28 dimensions
  tflite vector-past-end
  want="m.tflite: tensor 1 'w': error: not a valid .tflite file: reading its shape \\(a vector at byte [0-9]+ \\(1073741824 bytes\\) lies outside the file" ;;
tflite-table-past-end) # the subgraph's operators 64 bytes past the end
  tflite table-past-end
  want="m.tflite: error: not a valid .tflite file: reading the subgraph's operators \\(.* lies outside the file \\(500 bytes\\)\\)" ;;
tflite-vtable-past-end) # tensor 2's vtable past the end
  tflite vtable-past-end
  want="m.tflite: tensor 2 'tensor2': error: not a valid .tflite file: reading it \\(the vtable of the table at byte [0-9]+ \\(4 bytes\\) lies outside the file" ;;
tflite-string-without-nul) # tensor 2's name 'y' ends with '!', not NUL
  tflite string-without-nul
  want="m.tflite: tensor 2 'tensor2': error: not a valid .tflite file: reading its name \\(the string at byte [0-9]+ is not 1 bytes ended by a NUL\\)" ;;
tflite-zero-scale)
  tflite zero-scale
  want="m.tflite: tensor 1 'k': error: has quantization scale 0; a scale must be positive and finite" ;;
tflite-negative-scale)
  tflite negative-scale
  want="m.tflite: tensor 1 'k': error: has quantization scale -0.5; a scale must be positive and finite" ;;
tflite-nan-scale)
  tflite nan-scale
  want="m.tflite: tensor 1 'k': error: has quantization scale -?nan; a scale must be positive and finite" ;;
tflite-zero-point-out-of-range) # an int8 tensor's zero point 300
  tflite zero-point-out-of-range
  want="m.tflite: tensor 1 'k': error: has zero point 300, which its type INT8 cannot hold" ;;
tflite-shape-vs-buffer) # float[1,2,2,1] with 12 bytes
  tflite shape-vs-buffer
  want="m.tflite: tensor 1 'w': error: has shape float\\[1,2,2,1\\] \\(16 bytes\\) but its buffer 1 holds 12 bytes" ;;
tflite-buffer-past-end) # a buffer's offset and size (schema 3c) 1 MiB into a 504-byte file
  tflite buffer-past-end
  want="m.tflite: error: not a valid .tflite file: buffer 1 says its 16 bytes are at byte 1048576, past the end of the file" ;;
tflite-huge-shape) # 65536 x 65536 x 64 elements: over 2^36, before any size computed from them overflows
  tflite huge-shape
  want="m.tflite: tensor 0 'x': error: has dimensions multiplying to more than 68719476736 \\(dimension 2 is 64\\)" ;;
tflite-huge-broadcast) # [2^18, 1] + [1, 2^19]: the computed output's 2^37 elements refused before any use
  tflite huge-broadcast
  want="m.tflite:y \\(Add\\): error: output 'y' would have more than 68719476736 elements \\(dimension 1 is 524288\\)" ;;
tflite-tensor-index-out-of-range) # ADD's input 1 is tensor 7 of 3
  tflite tensor-index-out-of-range
  want="m.tflite: operator 0 \\(ADD\\): error: input 1 is tensor 7; the subgraph has tensors 0 to 2" ;;
tflite-omitted-input) # ADD's input 0 is -1
  tflite omitted-input
  want="m.tflite: operator 0 \\(ADD, output 'y'\\): error: input 0 is omitted \\(-1\\); ADD needs its first 2 inputs" ;;
tflite-string-tensor) # ADD of a STRING tensor (a tensor of a type no importer reads)
  tflite string-tensor
  want="m.tflite: operator 0 \\(ADD, output 'y'\\): error: input 0 \\('x'\\) has type STRING, which glowc does not compile" ;;
tflite-opcode-out-of-range)
  tflite opcode-out-of-range
  want="m.tflite: operator 0 .*: error: has operator code 5; the model has 1" ;;
tflite-unknown-builtin)
  tflite unknown-builtin
  want="m.tflite: error: 1 unsupported TFLite operator: an unknown builtin code 4000 \\(operator 0\\)" ;;
tflite-unsupported-ops) # three kinds among ADDs, all in one error
  tflite unsupported-ops
  want="m.tflite: error: 3 unsupported TFLite operators: LSH_PROJECTION \\(operators 0, 3\\); SKIP_GRAM \\(operator 2\\); DELEGATE \\(operator 4\\)\\. glowc imports ADD, " ;;
tflite-rank-9)
  tflite rank-9
  want="m.tflite: tensor 0 'x': error: has rank 9; glowc supports tensors of rank 8 at most" ;;
tflite-sparse-tensor)
  tflite sparse-tensor
  want="m.tflite: tensor 1 'w': error: is a sparse tensor, which glowc does not read" ;;
tflite-custom-quantization)
  tflite custom-quantization
  want="m.tflite: tensor 1 'w': error: has custom quantization details, which glowc does not read" ;;
tflite-many-tensors) # 2^20 + 1 tensors (4 MB): over GLOW_TFL_MAX_TENSORS, refused before any is read
  tflite many-tensors
  max_rss_mb=160
  want="m.tflite: error: the subgraph has 1048577 tensors, more than the 1048576 glowc reads" ;;
tflite-max-tensors) # 2^20 tensors sharing one table (4 MB), all read; the last an output no operator writes
  tflite max-tensors
  max_rss_mb=320
  want="m.tflite: error: output 'tensor1048575' is not written by any operator" ;;
tflite-many-references) # 65536 operators sharing one table of 1024 inputs (0.3 MB): 256 MB of indices
  tflite many-references
  max_rss_mb=160
  want="m.tflite: operator 65 \\(ADD, output 'y'\\): error: brings the tensor indices the operators list to 67650, more than the file's 266732 bytes hold" ;;
tflite-shared-buffer) # 4096 tensors of 1 MiB on one buffer (1.8 MB): 4 GiB of constants, refused at 4 x the file + 64 MiB
  tflite shared-buffer
  max_rss_mb=200
  want="m.tflite: operator 70 \\(ADD, output 's70'\\): error: its constants bring the model's to over 70 MiB, more than 4 times the file's size" ;;
unsupported-ops)
  args=(-model="$here/two-unsupported.onnx" -emit-bundle="$out")
  want="first_bad.*FrobnicateA.*second_bad.*FrobnicateB" ;;
rnn-wrong-w)
  # An LSTM whose W is for input size 5 while X has 3 (made with onnx.helper, as is the next one).
  args=(-model="$here/rnn-wrong-w.onnx" -emit-bundle="$out")
  want="rnn-wrong-w.onnx:lstm_wrong_w \\(LSTM\\): error: W must be float\\[1,8,3\\], not float\\[1,8,5\\]" ;;
rnn-bad-activation)
  # A GRU with activations Sigmoid, Swish (no recurrent activation of ONNX's list).
  args=(-model="$here/rnn-bad-activation.onnx" -emit-bundle="$out")
  want="rnn-bad-activation.onnx:gru_swish \\(GRU\\): error: activation 'Swish' is not supported" ;;
gridsample-5d)
  # GridSample (opset 16) is 4-D only: a 5-D input is refused, not sampled wrongly.
  args=(-model="$here/gridsample-5d.onnx" -emit-bundle="$out")
  want="gridsample-5d.onnx:sample5d \\(GridSample\\): error: X must be 4-D.*it is 5-D" ;;
stft-step-not-constant)
  # frame_step gives STFT's output shape: a graph input must be bound, and the error says how.
  args=(-model="$suite/test_stft/model.onnx" -emit-bundle="$out")
  want="STFT.*'frame_step'.*compile-time constant.*-bind-input=frame_step,<tensor.pb>" ;;
wrong-input-shape)
  args=(-model="$relu" -emit-bundle="$out" -model-input=x,float,[3,4,6])
  want="x.*\[3,4,6\]|x.*3,4,6" ;;
unknown-model-input)
  args=(-model="$relu" -emit-bundle="$out" -model-input=nosuch,float,[1])
  want="nosuch" ;;
missing-bundle-dir) # -emit-bundle is made with its parents, but not under a file
  : >"$work/afile"
  args=(-model="$relu" -emit-bundle="$work/afile/sub")
  want="afile/sub: error: -emit-bundle: cannot make the folder .*afile: a file has its name" ;;
bundle-dir-is-file)
  : >"$work/afile"
  args=(-model="$relu" -emit-bundle="$work/afile")
  want="afile.*not a directory" ;;
output-collision)
  # The weights file cannot be renamed into place (a directory has its name):
  # the object and header written before it must not be left behind either.
  mkdir -p "$out/model.weights.bin"
  args=(-model="$relu" -emit-bundle="$out" -network-name=model)
  keep=model.weights.bin
  want="model.weights.bin.*cannot rename" ;;
unknown-option)
  args=(-model="$relu" -emit-bundle="$out" -frobnicate)
  want="unknown option '-frobnicate'" ;;
bad-bundle-api)
  args=(-model="$relu" -emit-bundle="$out" -bundle-api=shared)
  want="-bundle-api.*shared" ;;
bad-target)
  args=(-model="$relu" -emit-bundle="$out" -target=nosucharch-linux-gnu)
  want="-target.*nosucharch.*aarch64-linux-gnu.*riscv64-linux-gnu.*thumbv7em-none-eabihf" ;;
bad-cross-mcpu)
  args=(-model="$relu" -emit-bundle="$out" -target=aarch64-linux-gnu -mcpu=cortex-m4)
  want="-mcpu.*unknown CPU 'cortex-m4' for target aarch64-linux-gnu.*cortex-a72" ;;
mcpu-not-triple) # LLVM would quietly compile Armv7E-M code for the Armv6-M triple
  args=(-model="$relu" -emit-bundle="$out" -target=thumbv6m-none-eabi -mcpu=cortex-m4)
  want="-mcpu: error: 'cortex-m4' does not fit the target thumbv6m-none-eabi .*cortex-m0.*use -target=thumbv7em-none-eabihf" ;;
hard-float-no-fpu) # eabihf on a Cortex-M0
  args=(-model="$relu" -emit-bundle="$out" -target=thumbv6m-none-eabihf)
  want="-target: error: thumbv6m-none-eabihf .*hard float.*cortex-m0 has no FPU: use -target=thumbv6m-none-eabi " ;;
areas-over-32-bit) # 4.8 GB of mutable weights (a batch of 30M) for 32-bit Arm Linux: more than its address space
  args=(-model="$relu" -emit-bundle="$out" -target=armv7-linux-gnueabihf -model-input=x,float,[30000000,4,5])
  want="-target: error: the bundle needs 4800000000 bytes .*mutable weights 4800000000.*, more than the 32-bit address space of armv7-linux-gnueabihf" ;;
float-abi-hard-no-fpu)
  args=(-model="$relu" -emit-bundle="$out" -target=arm -mcpu=cortex-m0plus -float-abi=hard)
  want="-float-abi: error: hard .*cortex-m0plus has no FPU: drop -float-abi=hard" ;;
disable-unknown-pass)
  args=(-model="$relu" -emit-bundle="$out" -disable-pass=fuse-epilog)
  want="-disable-pass: error: no pass 'fuse-epilog' \\(model-compiler -print-passes lists them\\)" ;;
disable-required-pass)
  args=(-model="$relu" -emit-bundle="$out" -disable-pass=dead-nodes,infer-fold)
  want="-disable-pass: error: 'infer-fold' cannot be disabled" ;;
cuda-bad-sm)
  args=(-model="$relu" -emit-bundle="$out" -target=nvptx64-nvidia-cuda -mcpu=sm_999)
  want="-mcpu.*unknown CPU 'sm_999' for target nvptx64-nvidia-cuda.*sm_80.*sm_90" ;;
cuda-embedded-weights)
  args=(-model="$relu" -emit-bundle="$out" -target=nvptx64-nvidia-cuda -weights=embedded)
  want="-weights.*embedded weights are not for GPU bundles.*-weights=bin or -weights=zst" ;;
cuda-rnn-too-large)
  # An LSTM of hidden size 200 (W and R as inputs; made with onnx.helper): over the GPU kernel's fixed buffers.
  args=(-model="$here/lstm-hidden-200.onnx" -emit-bundle="$out" -target=nvptx64-nvidia-cuda)
  want="lstm-hidden-200.onnx:big_lstm \\(LSTM\\): error: hidden size 200 is over the 146 this op takes on a GPU" ;;
cuda-bad-host)
  args=(-model="$relu" -emit-bundle="$out" -target=nvptx64-nvidia-cuda -cuda-host=riscv64-linux-gnu)
  want="-cuda-host: error: the host of a nvptx64-nvidia-cuda bundle .* is one of x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, not 'riscv64-linux-gnu'" ;;
bad-float-abi)
  args=(-model="$relu" -emit-bundle="$out" -target=thumbv7em-none-eabihf -float-abi=medium)
  want="-float-abi.*'medium' is not default, soft, hard or none" ;;
float-abi-not-arm)
  args=(-model="$relu" -emit-bundle="$out" -target=riscv64-linux-gnu -float-abi=hard)
  want="-float-abi.*32-bit Arm.*riscv64-linux-gnu" ;;
bad-weights)
  args=(-model="$relu" -emit-bundle="$out" -weights=bin,zip)
  want="-weights.*unknown kind 'zip'.*embedded" ;;
ram-too-small) # the digits CNN in float, weights in RAM, for a Cortex-M0 with 2 KiB: every part named, then the fixes
  args=(-model="$here/../../examples/digits/digits.onnx" -emit-bundle="$out" -target=thumbv6m-none-eabi -ram-size=2K)
  n="[[:space:]]+[0-9]+" # a part's line: its bytes
  want="digits.onnx: error: bundle 'digits' needs [0-9]+ bytes of RAM, more than -ram-size=2K \\(2048 bytes\\):\
[[:space:]]+activations$n[[:space:]]+mutable weights$n  inputs and outputs[[:space:]]+constant weights$n  loaded into \
RAM[[:space:]]+stack, at most$n  deepest path digits \\([0-9]+\\) > digits\\.step[^;]*; 128 for library routines\
[[:space:]]+total$n  [0-9]+ bytes over[[:space:]]+To fit it: -weights=embedded \\(the [0-9]+ bytes of constant weights \
stay in flash, inside digits.o\\); if the model computes in float, int8 quantization .*-load-profile=<profile.yml>.*; \
a board with more RAM; or, if 2048 bytes is not what the program leaves the bundle, the right -ram-size" ;;
flash-too-small) # the same with its weights in the object, for 16 KiB of flash
  args=(-model="$here/../../examples/digits/digits.onnx" -emit-bundle="$out" -target=thumbv6m-none-eabi
        -weights=embedded -flash-size=16K)
  n="[[:space:]]+[0-9]+"
  want="digits.onnx: error: bundle 'digits' needs [0-9]+ bytes of flash, more than -flash-size=16K \\(16384 bytes\\):\
[[:space:]]+code and read-only data$n  digits.o's sections[[:space:]]+constant weights$n  inside digits.o\
[[:space:]]+total$n  [0-9]+ bytes over[[:space:]]+To fit it: if the model computes in float, int8 quantization .*; \
-weights=embedded,zst .*; a board with more flash" ;;
ram-size-zero)
  args=(-model="$relu" -emit-bundle="$out" -target=thumbv6m-none-eabi -ram-size=0)
  want="-ram-size: error: '0' is not a size of memory: give it in bytes, or in K, M or G .*e.g. -ram-size=256K" ;;
ram-size-bad-unit)
  args=(-model="$relu" -emit-bundle="$out" -target=thumbv6m-none-eabi -ram-size=12Q)
  want="-ram-size: error: '12Q' is not a size of memory" ;;
ram-size-negative)
  args=(-model="$relu" -emit-bundle="$out" -target=thumbv6m-none-eabi -ram-size=-64K)
  want="-ram-size: error: '-64K' is not a size of memory" ;;
flash-size-huge) # 2^64 and more, read without overflowing
  args=(-model="$relu" -emit-bundle="$out" -target=thumbv6m-none-eabi -flash-size=99999999999999999999999M)
  want="-flash-size: error: '99999999999999999999999M' is more than 2\\^48 bytes" ;;
ram-size-gpu)
  args=(-model="$relu" -emit-bundle="$out" -target=nvptx64-nvidia-cuda -ram-size=64K)
  want="-ram-size: error: not for GPU bundles \\(nvptx64-nvidia-cuda\\)" ;;
bad-mcpu)
  args=(-model="$relu" -emit-bundle="$out" -mcpu=nosuchcpu)
  want="-mcpu.*unknown CPU 'nosuchcpu'.*znver4" ;;
bad-mattr)
  args=(-model="$relu" -emit-bundle="$out" -mattr=+nosuchfeature)
  want="-mattr.*unknown feature.*avx2" ;;
bad-zst-level)
  args=(-model="$relu" -emit-bundle="$out" -weights=zst -weights-compression-level=30)
  want="-weights-compression-level.*'30' is not a whole number from 1 to 22" ;;
zst-level-without-zst)
  args=(-model="$relu" -emit-bundle="$out" -weights-compression-level=9)
  want="-weights-compression-level.*add zst to -weights" ;;
bad-quant-precision)
  args=(-model="$relu" -emit-bundle="$out" -load-profile="$work/p.yml" -quantization-precision=Int32)
  want="-quantization-precision.*'Int32' is not one of: Int8, Int16" ;;
quant-int16-kl)
  args=(-model="$relu" -emit-bundle="$out" -load-profile="$work/p.yml" -quantization-precision=Int16
        -quantization-calibration=KL)
  want="-quantization-calibration.*KL.*8 bits.*-quantization-precision=Int8" ;;
quant-without-profile)
  args=(-model="$relu" -emit-bundle="$out" -quantization-precision-bias=Int8)
  want="-load-profile.*need a profile" ;;
profile-mismatch)
  # A glowc profile of another model (x, b -> r): test_relu computes y from x.
  printf -- '---\nGlowToolsVersion: glowc 0.1.0\n...\n---\n' >"$work/p.yml"
  for v in b r x; do printf -- "- NodeOutputName: '%s:0'\n  Min: -1\n  Max: 1\n  Histogram: [1, 1]\n" $v >>"$work/p.yml"; done
  args=(-model="$relu" -emit-bundle="$out" -load-profile="$work/p.yml")
  want="p.yml: error: the profile does not match the model.*missing: +y:0.*unexpected: b:0.*unexpected: r:0" ;;
glow-profile-mismatch)
  # A Glow profile of another model (x, b -> r, s, y): the digits CNN's values are not in it.
  args=(-model="$here/../../examples/digits/digits.onnx" -emit-bundle="$out"
        -load-profile="$here/../profile/glow-profile.yml")
  want="glow-profile.yml: error: the profile, written by Glow.*no entry for 11 of the 11 values.*missing: /1/BatchNormalization_output_0:0 \\(sought: _0_Conv entries of node '/0/Conv' \\(Conv\\)\\)" ;;
*)
  echo "unknown case $case_name"; exit 2 ;;
esac

# Run under a python3 parent that reads the compiler's peak RSS (ru_maxrss of its children).
python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024))
sys.exit(rc if rc >= 0 else 128 - rc)' "$work/rss" "$mc" "${args[@]}" >"$work/stdout" 2>"$work/stderr"
rc=$?
status=0
rss=$(cat "$work/rss" 2>/dev/null)
if [ -n "${max_rss_mb:-}" ]; then
  if [ -n "${GLOWC_SANITIZED:-}" ]; then
    echo "peak RSS ${rss} MB (bound ${max_rss_mb} MB not checked: a sanitizer build's shadow memory)"
  elif [ -z "$rss" ] || [ "$rss" -gt "$max_rss_mb" ]; then
    echo "FAIL: peak RSS ${rss:-?} MB, over the bound of ${max_rss_mb} MB"; status=1
  else
    echo "peak RSS ${rss} MB (bound ${max_rss_mb} MB)"
  fi
fi
if [ $rc -eq 0 ]; then
  echo "FAIL: exit status 0, expected an error"; status=1
elif [ $rc -gt 125 ]; then
  echo "FAIL: crashed (exit status $rc)"; status=1
fi
if ! grep -Ezq -- "$want" "$work/stderr"; then
  echo "FAIL: stderr does not match /$want/"; status=1
fi
left=$( [ -d "$out" ] && ls -A "$out" | grep -vx "${keep:-}" )
if [ -n "$left" ]; then
  echo "FAIL: files left behind: $left"; status=1
fi
echo "--- stderr:"; cat "$work/stderr"
exit $status
