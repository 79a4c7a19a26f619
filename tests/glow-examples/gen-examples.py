#!/usr/bin/python3
"""Generates the models and images of Glow's bundle examples (tests/glow-examples).

    /usr/bin/python3 tests/glow-examples/gen-examples.py <out_dir> [lenet_mnist] [resnet50] [multiple_entries]

Glow's examples download a Caffe2 lenet_mnist and resnet50 and use the PNGs of Glow's source tree;
these are made here instead, with Glow's tensor names, so the examples' command lines run unchanged.
Writes, for each named example (all when none are named):

  <out_dir>/lenet_mnist/lenet_mnist/{predict_net,init_net}.pb   Caffe2's LeNet (conv 20 5x5, max pool,
                                conv 50 5x5, max pool, FC 500, Relu, FC 10, Softmax), input "data"
                                [1,1,28,28] in [0,1], output "softmax"; trained for a few seconds on
                                scikit-learn's 8x8 digits drawn at 20x20 in a 28x28 frame (as MNIST)
  <out_dir>/lenet_mnist/model.onnx                              its ONNX twin
  <out_dir>/lenet_mnist/images/<digit>_<index>.png              held-out digits, 28x28 grey, 8 bits
  <out_dir>/resnet50/resnet50/{predict_net,init_net}.pb         torchvision resnet50, random weights
                                (seeded), BatchNorm statistics and a classifier fitted to the photos
                                (see fit_classifier()), a Softmax added; input "gpu_0/data"
                                [1,3,224,224], output "gpu_0/softmax"
  <out_dir>/resnet50/model.onnx                                 its ONNX twin
  <out_dir>/resnet50/images/<photo>.png                         photos installed with scikit-learn
                                (china, flower) and SciPy (face), scaled and cropped to 224x224 RGB
  <out_dir>/multiple_entries/entry1.onnx, entry2.onnx           the two networks of Glow's
                                bundle_with_multiple_entries: input<k> [16] -> [1,16] -> MatMuls by
                                the shared 16x16 constants matmulconst1 (all 1/16), matmulconst2
                                (2/16) and, in entry 2, matmulconst3 (3/16) -> [16] -> output<k>
  <out_dir>/<example>/expected.txt   one line per image: "<png> <ORT top-1> <ORT top-1 prob>
                                <ORT top-2 prob> <label>" (label: the digit, or - for photos),
                                ONNX Runtime on the input as Glow's example programs make it from the
                                PNG (values/255, i.e. -image-mode=0to1; resnet50 in BGR order, NCHW)
  <out_dir>/<example>/ort/                                      ORT's inputs and outputs

Needs what tests/caffe2/gen-caffe2.py needs (torch, torchvision, onnx, sklearn, scipy, protoc-c,
node and onnxruntime-node). Two runs write the same bytes.
"""
import io
import os
import subprocess
import sys
import time

import numpy as np
import onnx
import torch
import torchvision
from onnx import TensorProto, helper, numpy_helper
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "caffe2"))
sys.path.insert(0, os.path.join(HERE, "..", "reference"))
import onnx2caffe2  # noqa: E402
import onnxref  # noqa: E402

SEED = 0
LENET_EPOCHS = 8
LENET_HELD_OUT = 20  # images written, two of each digit
# Photos installed with the Debian packages python3-sklearn and python3-scipy: name -> (file, the
# ImageNet class resnet50's classifier is fitted to give it).
PHOTOS = {
    "china": ("/usr/lib/python3/dist-packages/sklearn/datasets/images/china.jpg", 698),  # palace
    "flower": ("/usr/lib/python3/dist-packages/sklearn/datasets/images/flower.jpg", 985),  # daisy
    "face": ("scipy.misc.face", 360),  # otter (ImageNet has no raccoon)
}


def write_png(path, chw_uint8):
    """An 8-bit PNG: grey for one channel, RGB for three."""
    torchvision.io.write_file(path, torchvision.io.encode_png(torch.from_numpy(np.ascontiguousarray(chw_uint8))))


def export(model, shape, input_name, output_name, mode=torch.onnx.TrainingMode.EVAL):
    """ONNX bytes; PRESERVE keeps BatchNormalization (SpatialBN in the Caffe2 net, as in Caffe2's zoo)."""
    model.eval()
    buf = io.BytesIO()
    torch.onnx.export(model, torch.zeros(shape), buf, opset_version=13, do_constant_folding=True,
                      training=mode, input_names=[input_name],
                      output_names=[output_name])
    return buf.getvalue()


def write_model(ex_dir, name, onnx_bytes):
    """model.onnx and the Caffe2 folder <ex_dir>/<name>, as Glow's -model=<dir>/<name> reads it."""
    os.makedirs(ex_dir, exist_ok=True)
    with open(os.path.join(ex_dir, "model.onnx"), "wb") as f:
        f.write(onnx_bytes)
    onnx2caffe2.convert(onnx.load_from_string(onnx_bytes), os.path.join(ex_dir, name))


def run_ort(ex_dir, input_name, inputs):
    """ORT's output for each input (one test_data_set_<i> per input, the model shared)."""
    model = os.path.join(ex_dir, "model.onnx")
    cases = []
    for i, x in enumerate(inputs):
        data = os.path.join(ex_dir, "ort", "test_data_set_%d" % i)
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(data, "input_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, input_name).SerializeToString())
        cases.append((model, data))
    pairs = os.path.join(ex_dir, "ort", "pairs.txt")
    with open(pairs, "w") as f:
        f.writelines("%s %s\n" % c for c in cases)
    subprocess.run(["node", onnxref.ORT_RUN, "--pairs", pairs], check=True)
    return [numpy_helper.to_array(onnx.load_tensor(os.path.join(d, "output_0.pb"))) for _, d in cases]


def write_expected(ex_dir, pngs, outputs, labels):
    with open(os.path.join(ex_dir, "expected.txt"), "w") as f:
        for png, y, label in zip(pngs, outputs, labels):
            p = y.reshape(-1)
            order = np.argsort(-p, kind="stable")
            f.write("%s %d %.6f %.6f %s\n" % (png, order[0], p[order[0]], p[order[1]], label))


# ---- lenet_mnist ----

class LeNet(nn.Module):
    """Caffe2's MNIST LeNet."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.conv2 = nn.Conv2d(20, 50, 5)
        self.fc3 = nn.Linear(800, 500)
        self.pred = nn.Linear(500, 10)

    def logits(self, x):
        x = nn.functional.max_pool2d(self.conv1(x), 2, 2)
        x = nn.functional.max_pool2d(self.conv2(x), 2, 2)
        return self.pred(torch.relu(self.fc3(torch.flatten(x, 1))))

    def forward(self, x):
        return torch.softmax(self.logits(x), 1)


def digits_28x28():
    """scikit-learn's digits as MNIST draws them: the 8x8 image scaled to 20x20 in a 28x28 frame,
    8-bit grey. Returns (uint8 images [N,1,28,28], labels)."""
    from sklearn.datasets import load_digits
    d = load_digits()
    x = torch.from_numpy(d.images.astype(np.float32) / 16.0).unsqueeze(1)
    x = nn.functional.interpolate(x, size=(20, 20), mode="bilinear", align_corners=False)
    x = nn.functional.pad(x, (4, 4, 4, 4))
    return (x.clamp(0, 1) * 255).round().to(torch.uint8).numpy(), d.target.astype(np.int64)


def lenet_mnist(out_dir):
    from sklearn.model_selection import train_test_split
    ex = os.path.join(out_dir, "lenet_mnist")
    images, labels = digits_28x28()
    x_train, x_test, y_train, y_test = train_test_split(images, labels, test_size=0.25, random_state=SEED,
                                                        stratify=labels)
    torch.manual_seed(SEED)
    model = LeNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    xt, yt = torch.from_numpy(x_train).float() / 255, torch.from_numpy(y_train)
    gen = torch.Generator().manual_seed(SEED)
    model.train()
    for _ in range(LENET_EPOCHS):
        perm = torch.randperm(len(xt), generator=gen)
        for i in range(0, len(xt), 32):
            idx = perm[i:i + 32]
            opt.zero_grad()
            nn.functional.cross_entropy(model.logits(xt[idx]), yt[idx]).backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        acc = float((model(torch.from_numpy(x_test).float() / 255).argmax(1).numpy() == y_test).mean())
    write_model(ex, "lenet_mnist", export(model, (1, 1, 28, 28), "data", "softmax"))
    # Two held-out images of each digit, the first ones in the split's order.
    picks = [i for d in range(10) for i in np.flatnonzero(y_test == d)[:LENET_HELD_OUT // 10]]
    os.makedirs(os.path.join(ex, "images"), exist_ok=True)
    pngs, inputs = [], []
    for i in picks:
        png = "%d_%d.png" % (y_test[i], i)
        write_png(os.path.join(ex, "images", png), x_test[i])
        pngs.append(png)
        inputs.append((x_test[i].astype(np.float32) / 255).reshape(1, 1, 28, 28))
    write_expected(ex, pngs, run_ort(ex, "data", inputs), [str(y_test[i]) for i in picks])
    return "held-out accuracy %.3f over %d digits" % (acc, len(y_test))


# ---- resnet50 ----

def photo(name):
    """A photo as uint8 [3,224,224] RGB: the shorter side scaled to 224, the centre cropped."""
    path = PHOTOS[name][0]
    if path == "scipy.misc.face":
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from scipy import misc
            img = torch.from_numpy(np.ascontiguousarray(misc.face().transpose(2, 0, 1)))
    else:
        img = torchvision.io.decode_jpeg(torchvision.io.read_file(path))
    h, w = img.shape[1:]
    s = 224 / min(h, w)
    size = (max(224, round(h * s)), max(224, round(w * s)))
    x = nn.functional.interpolate(img.unsqueeze(0).float(), size=size, mode="bilinear", align_corners=False,
                                  antialias=True)[0]
    top, left = (size[0] - 224) // 2, (size[1] - 224) // 2
    return x[:, top:top + 224, left:left + 224].clamp(0, 255).round().to(torch.uint8).numpy()


class WithSoftmax(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return torch.softmax(self.net(x), 1)


def fit_classifier(net, x, classes, target=12.0, others=0.5):
    """Random weights give every photo the same class. Here the BatchNorm statistics become those
    of the photos (as after training on them) and the classifier is a linear probe fitted to them:
    photo i's row is the direction of its feature's deviation from the photos' mean, so class
    classes[i] gets logit `target` on it; the other rows stay random with logits of standard
    deviation `others`. Every row is orthogonal to the mean feature and the bias is zero, so a logit
    is not the small difference of a large product and a large bias."""
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                m.reset_running_stats()
                m.momentum = None  # a plain average over the batch
        net.train()
        net(x)
        net.eval()
        fc, net.fc = net.fc, nn.Identity()
        f = net(x)
        net.fc = fc
        mean = f.mean(0)
        u = mean / mean.norm()
        w = fc.weight - torch.outer(fc.weight @ u, u)
        w *= others / (f @ w.t()).std()
        for i, c in enumerate(classes):
            d = f[i] - mean
            d -= (d @ u) * u
            w[c] = target * d / (d @ f[i])
        fc.weight.copy_(w)
        fc.bias.zero_()
    return net


def resnet50(out_dir):
    ex = os.path.join(out_dir, "resnet50")
    shape = (1, 3, 224, 224)
    rgbs = {name: photo(name) for name in PHOTOS}
    inputs = [(rgb[::-1].astype(np.float32) / 255).reshape(shape) for rgb in rgbs.values()]  # BGR, as Glow's
    torch.manual_seed(SEED)                                                                  # programs feed it
    net = fit_classifier(torchvision.models.resnet50(weights=None), torch.from_numpy(np.concatenate(inputs)),
                         [c for _, c in PHOTOS.values()])
    write_model(ex, "resnet50", export(WithSoftmax(net), shape, "gpu_0/data", "gpu_0/softmax",
                                       torch.onnx.TrainingMode.PRESERVE))
    os.makedirs(os.path.join(ex, "images"), exist_ok=True)
    pngs = []
    for name, rgb in rgbs.items():
        pngs.append(name + ".png")
        write_png(os.path.join(ex, "images", pngs[-1]), rgb)
    write_expected(ex, pngs, run_ort(ex, "gpu_0/data", inputs), ["-"] * len(pngs))
    return "%d photos" % len(pngs)


# ---- bundle_with_multiple_entries ----

def multiple_entries(out_dir):
    ex = os.path.join(out_dir, "multiple_entries")
    os.makedirs(ex, exist_ok=True)
    consts = [numpy_helper.from_array(np.full((16, 16), 0.0625 * k, np.float32), "matmulconst%d" % k)
              for k in (1, 2, 3)]
    for entry, n_matmul in ((1, 2), (2, 3)):
        x, y = "input%d" % entry, "output%d" % entry
        nodes = [helper.make_node("Reshape", [x, "row"], ["r0"])]
        for k in range(1, n_matmul + 1):
            nodes.append(helper.make_node("MatMul", ["r%d" % (k - 1), "matmulconst%d" % k], ["r%d" % k]))
        nodes.append(helper.make_node("Reshape", ["r%d" % n_matmul, "flat"], [y]))
        inits = consts[:n_matmul] + [numpy_helper.from_array(np.array([1, 16], np.int64), "row"),
                                     numpy_helper.from_array(np.array([16], np.int64), "flat")]
        graph = helper.make_graph(nodes, "testMainEntry%d" % entry,
                                  [helper.make_tensor_value_info(x, TensorProto.FLOAT, [16])],
                                  [helper.make_tensor_value_info(y, TensorProto.FLOAT, [16])], inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        onnx.checker.check_model(model)
        onnx.save(model, os.path.join(ex, "entry%d.onnx" % entry))
    return "2 networks"


EXAMPLES = {"lenet_mnist": lenet_mnist, "resnet50": resnet50, "multiple_entries": multiple_entries}


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: gen-examples.py <out_dir> [%s]" % "] [".join(EXAMPLES))
    out_dir, names = sys.argv[1], sys.argv[2:] or list(EXAMPLES)
    unknown = [n for n in names if n not in EXAMPLES]
    if unknown:
        sys.exit("gen-examples: unknown example(s) %s; known: %s" % (" ".join(unknown), " ".join(EXAMPLES)))
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    for name in names:
        t0 = time.monotonic()
        what = EXAMPLES[name](out_dir)
        print("gen-examples: %s: %s, %.1f s" % (name, what, time.monotonic() - t0))


if __name__ == "__main__":
    main()
