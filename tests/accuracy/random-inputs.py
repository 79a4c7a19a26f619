#!/usr/bin/python3
"""Writes random float32 inputs for a model's first input, one rawbin file each.
    random-inputs.py <model.onnx> <out dir> <count> [seed]
Standard normal values with a fixed seed: the same files every run. Prints the shape."""
import os
import sys

import numpy as np
import onnx


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    model, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) == 5 else 0
    dims = [d.dim_value for d in onnx.load(model).graph.input[0].type.tensor_type.shape.dim]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(seed)
    for i in range(count):
        rng.standard_normal(dims).astype("<f4").tofile(os.path.join(out, "%02d.bin" % i))
    print(dims)


if __name__ == "__main__":
    main()
