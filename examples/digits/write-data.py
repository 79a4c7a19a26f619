#!/usr/bin/python3
"""Writes digits images as raw float32 files, one 1x1x8x8 tensor each (model-profiler's rawbin).
    /usr/bin/python3 examples/digits/write-data.py calibration [out_dir]
        the first 200 training images of train-digits.py's split, as out_dir/NNNN.bin
        (default: examples/digits/calibration, committed: the quantized example's data)
    /usr/bin/python3 examples/digits/write-data.py heldout <out_dir>
        every held-out image, all in out_dir/images.bin (N x 64 floats), and their
        labels, one a line, in out_dir/labels.txt (the quantization accuracy test)
Needs what train-digits.py imports (numpy, sklearn, torch, onnx); same bytes every run.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def split():
    """train-digits.py's own split (x_train, x_test, y_train, y_test)."""
    spec = importlib.util.spec_from_file_location("train_digits", os.path.join(HERE, "train-digits.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.load_data()


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("calibration", "heldout"):
        sys.exit(__doc__)
    x_train, x_test, _, y_test = split()
    if sys.argv[1] == "calibration":
        out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "calibration")
        os.makedirs(out, exist_ok=True)
        for i in range(200):
            x_train[i].astype("<f4").tofile(os.path.join(out, "%04d.bin" % i))
    else:
        if len(sys.argv) != 3:
            sys.exit(__doc__)
        out = sys.argv[2]
        os.makedirs(out, exist_ok=True)
        x_test.astype("<f4").tofile(os.path.join(out, "images.bin"))
        with open(os.path.join(out, "labels.txt"), "w") as f:
            f.write("".join("%d\n" % v for v in y_test))


if __name__ == "__main__":
    main()
