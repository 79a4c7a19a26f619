# Helpers of the glow-examples test scripts (sourced): building a client, timing steps, and
# checking a client's "Image:/Result:/Confidence:" lines against the fixture's expected.txt
# (<png> <ORT top-1> <ORT top-1 prob> <ORT top-2 prob> <label>).
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLIENTS=$HERE/clients
CXX=${CXX:-c++}
CC=${CC:-cc}

# abspath <path>: the scripts cd into Glow's folders, so relative arguments are made absolute.
abspath() {
  case $1 in
    /*) echo "$1" ;;
    *) echo "$PWD/$1" ;;
  esac
}

# step <what> <command...>: runs the command, echoed as a Glow build would, with its time.
step() {
  local what=$1 t0 t1
  shift
  echo "+ $*"
  t0=$EPOCHREALTIME
  "$@" || { echo "FAIL: $what: exit status $?"; exit 1; }
  t1=$EPOCHREALTIME
  awk -v what="$what" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "time: %s: %.1f s\n", what, t1 - t0 }'
}

# build_client <exe> <bundle dir> <client.cpp> [compiler and linker arguments...]: the client,
# its PNG reader, the bundle's object and libpng, as Glow's CMakeLists links its examples.
build_client() {
  local exe=$1 dir=$2 src=$3
  shift 3
  step "build $(basename "$exe")" "$CXX" -std=c++11 -g -O1 -Wall -Wextra -Werror -I"$dir" -I"$CLIENTS" \
    -o "$exe" "$CLIENTS/$src" "$CLIENTS/png-image.cpp" "$@" -lpng
}

# check_results <client output> <expected.txt> <what> <float|int8> <min correct labels>
# Every image's Result must be ORT's top-1 (a near tie, top-2 within 1e-4, is reported and
# skipped); a float bundle's Confidence must be ORT's probability within 1e-4; with a label
# column, at least <min correct labels> Results must be the label.
check_results() {
  awk -v what="$3" -v kind="$4" -v min_right="$5" '
    FNR == NR { order[++n_images] = $1; top[$1] = $2; p1[$1] = $3; p2[$1] = $4; label[$1] = $5; next }
    /^Image: / { n = split($2, parts, "/"); img = parts[n] }
    /^Result: / { res[img] = $2 }
    /^Confidence: / { conf[img] = $2 }
    END {
      bad = 0; right = 0; labelled = 0; count = 0
      for (i = 1; i <= n_images; i++) {
        img = order[i]
        if (!(img in res)) { printf "FAIL: %s: no result for %s\n", what, img; bad = 1; continue }
        count++
        tie = p1[img] - p2[img] < 1e-4
        if (res[img] != top[img] && tie) {
          printf "skipped: %s: %s: ORT top-1 %d is a near tie (%.6f vs %.6f); bundle %d\n", what, img, top[img], p1[img], p2[img], res[img]
        } else if (res[img] != top[img]) {
          printf "FAIL: %s: %s: top-1 %d, ONNX Runtime %d (p %.6f, next %.6f)\n", what, img, res[img], top[img], p1[img], p2[img]; bad = 1
        }
        d = conf[img] - p1[img]; if (d < 0) d = -d
        if (kind == "float" && res[img] == top[img] && d > 1e-4) {
          printf "FAIL: %s: %s: confidence %s, ONNX Runtime %.6f\n", what, img, conf[img], p1[img]; bad = 1
        }
        if (label[img] != "-") { labelled++; if (res[img] == label[img]) right++ }
        printf "%s: %s: top-1 %d (confidence %s), ONNX Runtime %d (%.6f)%s\n", what, img, res[img], conf[img], top[img], p1[img], label[img] != "-" ? ", label " label[img] : ""
      }
      if (labelled) {
        printf "%s: %d of %d labels right (at least %d required)\n", what, right, labelled, min_right
        if (right < min_right) { printf "FAIL: %s: only %d of %d digits right\n", what, right, labelled; bad = 1 }
      }
      if (!count) { printf "FAIL: %s: no images checked\n", what; bad = 1 }
      exit bad
    }' "$2" "$1" || exit 1
}

# check_quantized <float weights> <int8 weights>: the int8 bundle's constants must be under 40% of
# the float one's (int8 weights, int32 biases), or the "int8" bundle was not quantized.
check_quantized() {
  local f q
  f=$(stat -c %s "$1") q=$(stat -c %s "$2")
  echo "weights: float $f bytes, int8 $q bytes"
  [ $((q * 10)) -lt $((f * 4)) ] || { echo "FAIL: $2 is not under 40% of $1: not quantized?"; exit 1; }
}
