#!/usr/bin/python3
"""Trains the small digits CNN and writes the files committed next to this script.

    /usr/bin/python3 examples/digits/train-digits.py [out_dir]

Trains on scikit-learn's 8x8 digits (1x1x8x8 float input in [0, 1]) with a fixed seed on one
thread, so two runs write the same bytes; takes a few seconds. Writes to out_dir (default: this
script's folder):
  digits.onnx   opset 13, input "input" [1,1,8,8], output "output" [1,10] (logits); the
                BatchNormalization nodes stay in the graph (glowc folds them itself)
  samples.h     10 held-out images, one per digit, and their labels, for C programs
  expected.txt  the class ONNX Runtime predicts for each sample, one per line
Needs torch, onnx and sklearn (Debian's python3-torch python3-onnx python3-sklearn) and
onnxruntime-node (scripts/install-deps.sh) for expected.txt. gen-models.py imports
train/export from here for its `digits_cnn` model.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_RUN = os.path.join(HERE, "..", "..", "tests", "reference", "ort-run.js")
SEED = 0
EPOCHS = 30


def build_model():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(64, 32), nn.ReLU(),
        nn.Linear(32, 10),
    )


def load_data():
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    y = digits.target.astype(np.int64)
    return train_test_split(x, y, test_size=0.25, random_state=SEED, stratify=y)


def train():
    """Returns (model in eval mode, x_test, y_test, held-out accuracy)."""
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    x_train, x_test, y_train, y_test = load_data()
    model = build_model()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(x_train), torch.from_numpy(y_train)
    gen = torch.Generator().manual_seed(SEED)
    model.train()
    for _ in range(EPOCHS):
        perm = torch.randperm(len(xt), generator=gen)
        for i in range(0, len(xt), 32):
            idx = perm[i:i + 32]
            opt.zero_grad()
            loss_fn(model(xt[idx]), yt[idx]).backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(x_test)).argmax(1).numpy()
    return model, x_test, y_test, float((pred == y_test).mean())


def export(model, path):
    # PRESERVE (with the model in eval mode) rather than EVAL: torch 1.13 runs its
    # eval-mode peephole under EVAL, which fuses each BatchNorm into the Conv before it
    # whatever do_constant_folding says.
    torch.onnx.export(
        model, torch.zeros(1, 1, 8, 8), path, opset_version=13,
        training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False,
        input_names=["input"], output_names=["output"])


def pick_samples(x_test, y_test):
    """The first held-out image of each digit 0..9."""
    idx = [int(np.flatnonzero(y_test == d)[0]) for d in range(10)]
    return x_test[idx].reshape(10, 64), y_test[idx]


def ort_predict(model_path, images):
    preds = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, img in enumerate(images):
            case = os.path.join(tmp, str(i))
            os.mkdir(case)
            t = numpy_helper.from_array(img.reshape(1, 1, 8, 8), "input")
            with open(os.path.join(case, "input_0.pb"), "wb") as f:
                f.write(t.SerializeToString())
            subprocess.run(["node", ORT_RUN, model_path, case], check=True)
            out = onnx.TensorProto()
            with open(os.path.join(case, "output_0.pb"), "rb") as f:
                out.ParseFromString(f.read())
            preds.append(int(numpy_helper.to_array(out).argmax()))
    return preds


def write_samples_h(path, images, labels, accuracy):
    rows = []
    for img in images:
        vals = ", ".join(f"{float(v):.4f}f" for v in img)
        rows.append(f"    {{{vals}}},")
    text = (
        "/* 10 held-out images from scikit-learn's 8x8 digits, one per digit, pixels scaled to\n"
        " * [0, 1], row-major 1x1x8x8 (the input of digits.onnx). Written by train-digits.py;\n"
        f" * do not edit. Held-out accuracy of digits.onnx: {accuracy * 100:.1f}%. */\n"
        "#ifndef GLOW_DIGITS_SAMPLES_H\n"
        "#define GLOW_DIGITS_SAMPLES_H\n\n"
        "static const float glow_digits_samples[10][64] = {\n"
        + "\n".join(rows) + "\n};\n\n"
        "static const int glow_digits_labels[10] = {"
        + ", ".join(str(int(v)) for v in labels) + "};\n\n"
        "#endif\n")
    with open(path, "w") as f:
        f.write(text)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else HERE
    os.makedirs(out_dir, exist_ok=True)
    model, x_test, y_test, accuracy = train()
    print(f"train-digits: held-out accuracy {accuracy * 100:.2f}% ({len(y_test)} images)")
    model_path = os.path.join(out_dir, "digits.onnx")
    export(model, model_path)
    images, labels = pick_samples(x_test, y_test)
    write_samples_h(os.path.join(out_dir, "samples.h"), images, labels, accuracy)
    preds = ort_predict(model_path, images)
    with torch.no_grad():
        torch_preds = model(torch.from_numpy(images.reshape(10, 1, 8, 8))).argmax(1).tolist()
    if preds != torch_preds:
        sys.exit(f"train-digits: ONNX Runtime predicts {preds}, torch {torch_preds}")
    with open(os.path.join(out_dir, "expected.txt"), "w") as f:
        f.write("".join(f"{p}\n" for p in preds))
    print(f"train-digits: labels {labels.tolist()}, ONNX Runtime predicts {preds}")


if __name__ == "__main__":
    main()
