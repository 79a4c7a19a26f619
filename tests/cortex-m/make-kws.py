"""The TFLite model of the Cortex-M runs (tests/cortex-m): tests/tflite/nets.py's int8 DS-CNN
keyword spotter (int8 input and outputs, quantized as TFLite's converter does) with FILTERS
filters instead of 64, so that it runs in the microbit's 16 KiB of RAM, and its reference
outputs from Arm NN 22 (the tflite tests' reference runtime, armnn-run.py).

  make-kws.py write --tflite-tests DIR --flatc FLATC --fbs tflite.fbs --out DIR
      writes DIR/kws.tflite, DIR/kws-data.h (the input as C and the outputs' names, for
      examples/cortex-m/kws.c) and DIR/armnn.npz (Arm NN's outputs and the tolerance).
  make-kws.py check --out DIR OUTPUT.txt
      the "output <name>: <hex bytes>" lines a program printed must be Arm NN's outputs within
      the tolerance of the tflite tests' kws_int8 case (nets.py: 2 quanta).
Exit status 77 with a "skipped:" line when pyarmnn, numpy or flatbuffers (Python) or flatc are
absent."""
import argparse
import importlib.util
import os
import subprocess
import sys

FILTERS, BLOCKS = 32, 4


def skip(why):
    print(f"skipped: {why}")
    sys.exit(77)


def write(args):
    for mod in ("numpy", "flatbuffers", "pyarmnn"):
        if importlib.util.find_spec(mod) is None:
            skip(f"no Python module {mod} in {sys.executable} (scripts/install-deps.sh installs it)")
    if not args.flatc or not os.access(args.flatc, os.X_OK):
        skip("no flatc (Debian's flatbuffers-compiler)")
    import numpy as np
    os.makedirs(args.out, exist_ok=True)
    gen = os.path.join(args.out, "gen")
    subprocess.run([args.flatc, "--python", "--gen-object-api", "-o", gen, args.fbs], check=True)
    sys.dont_write_bytecode = True  # the case modules are imported from the source tree
    sys.path[:0] = [gen, args.tflite_tests]
    import nets
    case = nets.int8_case(nets.kws_dscnn(filters=FILTERS, blocks=BLOCKS), float_io=False, quanta=2)[0]
    model = os.path.join(args.out, "kws.tflite")
    with open(model, "wb") as f:
        f.write(case.model.bytes())
    (name, x), = case.inputs.items()
    outs = [case.model.names[i] for i in case.model.outputs]
    feed = os.path.join(args.out, "input.npy")
    np.save(feed, x)
    armnn = os.path.join(args.out, "armnn")
    os.makedirs(armnn, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(args.tflite_tests, "armnn-run.py"), model, armnn,
                    f"{name}={feed}"], check=True)
    ref = {o: np.load(os.path.join(armnn, o + ".npy")) for o in outs}
    np.savez(os.path.join(args.out, "armnn.npz"), quanta=case.quanta, **ref)
    flat = [str(int(v)) for v in x.reshape(-1)]
    values = "\n" + "".join(f"    {', '.join(flat[i:i + 20])},\n" for i in range(0, len(flat), 20))
    listed = " ".join(f'X("{o}", KWS_{o}, {ref[o].nbytes})' for o in outs)
    with open(os.path.join(args.out, "kws-data.h"), "w") as f:
        f.write(f"/* Written by tests/cortex-m/make-kws.py with kws.tflite: the input {name} "
                f"{list(x.shape)} {x.dtype} and the outputs. */\n"
                f"#include <stdint.h>\n\nstatic const int8_t kws_input[{x.size}] = {{{values}}};\n"
                f"#define KWS_INPUT_OFFSET KWS_{name}\n#define KWS_OUTPUTS(X) {listed}\n")
    print(f"wrote {model} (DS-CNN, {FILTERS} filters, {BLOCKS} blocks; outputs {', '.join(outs)}) "
          f"and Arm NN's outputs")


def check(args):
    import numpy as np
    ref = np.load(os.path.join(args.out, "armnn.npz"))
    quanta = int(ref["quanta"])
    got = {}
    with open(args.output) as f:
        for line in f:
            if line.startswith("output "):
                name, _, hexbytes = line[len("output "):].partition(": ")
                got[name] = np.frombuffer(bytes.fromhex(hexbytes.strip()), np.int8)
    bad = 0
    for name in (n for n in ref.files if n != "quanta"):
        r = ref[name].reshape(-1).astype(np.int64)
        if name not in got or got[name].size != r.size:
            print(f"{args.output}: no output {name} of {r.size} bytes")
            bad += 1
            continue
        d = int(np.max(np.abs(got[name].astype(np.int64) - r)))
        print(f"{name}: at most {d} quanta from Arm NN's (tolerance {quanta})")
        bad += d > quanta
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("write", "check"))
    ap.add_argument("output", nargs="?")
    ap.add_argument("--tflite-tests")
    ap.add_argument("--flatc")
    ap.add_argument("--fbs")
    ap.add_argument("--out", required=True)
    args = ap.parse_intermixed_args()
    return write(args) if args.what == "write" else check(args)


if __name__ == "__main__":
    sys.exit(main())
