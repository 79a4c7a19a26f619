#!/bin/sh
# The run prefix of the CUDA PTX tests (run-conformance.py --run-prefix): instead of
# running <exe> (no GPU here), checks the PTX in the bundle object beside it, section
# .glow.ptx of model.o: present, NUL-terminated, one .entry per step, and accepted by
# ptxas for <sm_XX>, with no generic access through a .local address
# and no pair of accesses that cannot both be aligned (ptx-lint.py: ptxas takes both, the
# GPU faults). Exit 0, or 3 with the reason (the harness's "error").
#   ptx-check.sh <ptxas> <sm_XX> <exe> <weights> <case_dir> [driver args]
set -u
ptxas=$1 arch=$2 dir=$(dirname "$3")
obj=$dir/model.o
if ! objcopy -O binary --only-section=.glow.ptx "$obj" "$dir/model.ptx.raw" || [ ! -s "$dir/model.ptx.raw" ]; then
  echo "error: $obj has no .glow.ptx section"
  exit 3
fi
if [ "$(tail -c 1 "$dir/model.ptx.raw" | od -An -tu1 | tr -d ' ')" != 0 ]; then
  echo "error: the PTX in $obj is not NUL-terminated (cuModuleLoadData reads a C string)"
  exit 3
fi
tr -d '\000' < "$dir/model.ptx.raw" > "$dir/model.ptx"
if ! grep -q '^\.visible \.entry ' "$dir/model.ptx"; then
  echo "error: the PTX in $obj has no kernel (.entry)"
  exit 3
fi
if ! out=$("$ptxas" -arch="$arch" "$dir/model.ptx" -o "$dir/model.cubin" 2>&1); then
  echo "error: ptxas -arch=$arch rejected the PTX of $obj:"
  echo "$out" | head -20
  exit 3
fi
if ! out=$(python3 "$(dirname "$0")/ptx-lint.py" "$dir/model.ptx"); then
  echo "error: the PTX of $obj has accesses the GPU faults on (local-generic: a generic access through a .local"
  echo "address; misaligned: loads or stores that cannot all be aligned):"
  echo "$out" | head -5
  exit 3
fi
echo "PTX of $obj: $(grep -c '^\.visible \.entry ' "$dir/model.ptx") kernels, accepted by ptxas -arch=$arch (not run: this check never runs it)"
