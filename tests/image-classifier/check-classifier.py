#!/usr/bin/python3
"""image-classifier end to end, on PNG images this script writes (png.py) and small models.

    check-classifier.py <case> --ic <image-classifier> --mc <model-compiler> --mp <model-profiler>
                        --root <source tree> --work <dir>

Cases:
  digits     sklearn's 8x8 digits as grey PNGs through examples/digits/digits.onnx (-i=0to1,
             -topk=3): every line in Glow's layout; top-1 labels and scores against ONNX Runtime
             on the tensors Glow's formula makes of the same pixels; the sklearn labels mostly
             right; -minibatch=4 and 0 print the same lines.
  modes      a Flatten model prints the input tensor back (-topk = every element): each
             -image-mode, both channel orders and both layouts, -mean/-stddev and
             -use-imagenet-normalization, grey images, checked against Glow's formula computed
             here; palette, 16-bit, 1-bit, RGBA, interlaced and grey+alpha PNGs decode to their
             pixels.
  format     Glow's top-k order on equal scores, -label-offset, -compute-softmax and
             -expected-labels (the exit status counts the misses): the whole stdout against
             Glow's algorithm written here.
  caffe2     digits.onnx as a Caffe2 net (tests/caffe2/onnx2caffe2.py): the input's shape comes
             from the images; the same labels as the ONNX model; no -model-input-name is an error.
  profile    -dump-profile from the digit PNGs: the same bytes as model-profiler's profile of
             the tensors Glow's formula makes of them; model-compiler -load-profile compiles with
             it; image-classifier -load-profile classifies as the float model mostly does.
  bad        not a PNG, cut short, a bad CRC, a PPM, the wrong size, grey for a colour model and
             colour for a grey one, mixed sizes: each an error naming the file, and no profile.
  options    Glow's options glowc refuses say what to use; bad values list the allowed ones;
             -help says the model runs in the reference interpreter.
"""
import argparse
import heapq
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import png  # noqa: E402

MODES = {None: (0, 255), "0to1": (0, 1), "neg1to1": (-1, 1), "0to255": (0, 255), "neg128to127": (-128, 127),
         "U16": (0, 65535), "S16": (-32768, 32767)}
IMAGENET_MEAN = [np.float32(0.485 * 255.0), np.float32(0.456 * 255.0), np.float32(0.406 * 255.0)]
IMAGENET_STD = [np.float32(0.229), np.float32(0.224), np.float32(0.225)]
FIRST = re.compile(r"^ File: (.*)\tLabel-K1: (\d+) \(probability: (\S+)\)$")
NEXT = re.compile(r"^\t{6}Label-K(\d+): (\d+) \(probability: (\S+)\)$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(args, cmd, expect_rc=0):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if expect_rc is not None and p.returncode != expect_rc:
        fail("%s\nexited with %d (expected %d)\nstdout:\n%s\nstderr:\n%s" % (" ".join(cmd), p.returncode, expect_rc,
                                                                            p.stdout, p.stderr))
    return p


def parse(stdout):
    """{file: [(label, score text), ...]} in order, checking Glow's header and line layout."""
    lines = stdout.split("\n")
    if not lines[0].startswith("Model: ") or lines[1] != "Running 1 thread(s).":
        fail("the output does not start with Glow's two lines:\n" + stdout)
    out, cur = {}, None
    for line in lines[2:]:
        if not line:
            continue
        m = FIRST.match(line)
        if m:
            cur = m.group(1)
            out[cur] = [(int(m.group(2)), m.group(3))]
            continue
        m = NEXT.match(line)
        if not m or cur is None or int(m.group(1)) != len(out[cur]) + 1:
            fail("a line not in Glow's layout: %r\n%s" % (line, stdout))
        out[cur].append((int(m.group(2)), m.group(3)))
    return out


def glow_tensor(px, mode=None, rgb=False, nhwc=False, mean=None, std=None):
    """Glow's preprocessing (lib/Base/Image.cpp) of h x w x c pixels in the file's RGB order,
    in float32 as Glow computes it: ((p - mean) / std) * ((hi - lo) / 255) + lo, mean and std
    listed in the tensor's channel order (reversed onto the file's channels for BGR), then the
    channels reversed for BGR and the layout CHW or HWC."""
    lo, hi = MODES[mode]
    scale = np.float32((np.float32(hi) - np.float32(lo)) / 255.0)
    h, w, c = px.shape
    mean = mean or [np.float32(0)] * 3
    std = std or [np.float32(1)] * 3
    chw = np.empty((c, h, w), np.float32)
    for z in range(c):
        m = np.float32(mean[z] if rgb else mean[len(mean) - 1 - z])
        s = np.float32(std[z] if rgb else std[len(std) - 1 - z])
        v = (px[:, :, z].astype(np.float32) - m) / s
        chw[z if rgb else c - 1 - z] = v * scale + np.float32(lo)
    return chw.transpose(1, 2, 0) if nhwc else chw


def flatten_model(path, shape):
    """x (float, shape) -> Flatten -> y [N, prod]: the scores are the input tensor."""
    n = int(np.prod(shape[1:]))
    g = helper.make_graph([helper.make_node("Flatten", ["x"], ["y"], axis=1)], "flat",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [shape[0], n])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def printed_tensor(res, n):
    """The Flatten model's scores back from -topk=n: label i's score."""
    t = np.full(n, np.nan)
    for label, score in res:
        t[label] = float(score)
    if np.isnan(t).any():
        fail("labels missing from the printed top %d: %s" % (n, res))
    return t


def digits_images(work, count, start=0):
    """sklearn digits (0..16) as grey PNGs (p = round(v * 255 / 16)): paths, pixels, labels."""
    from sklearn.datasets import load_digits
    d = load_digits()
    folder = os.path.join(work, "digits")
    os.makedirs(folder, exist_ok=True)
    paths, pixels = [], []
    for i in range(start, start + count):
        px = np.round(d.images[i] * 255.0 / 16.0).astype(np.uint8)
        p = os.path.join(folder, "%04d.png" % i)
        png.grey(p, px)
        paths.append(p)
        pixels.append(px)
    return paths, pixels, [int(v) for v in d.target[start:start + count]]


def ort_scores(args, model, tensors):
    """ONNX Runtime (tests/reference/ort-run.js) on each tensor: the output rows."""
    ort_dir = os.environ.get("GLOWC_ORT_DIR", os.path.expanduser("~/.cache/glowc/ort"))
    if not shutil.which("node") or not os.path.isdir(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
        print("skipped: node or onnxruntime-node (scripts/install-deps.sh) is missing")
        sys.exit(77)
    pairs = os.path.join(args.work, "ort-pairs.txt")
    with open(pairs, "w") as f:
        for i, t in enumerate(tensors):
            case = os.path.join(args.work, "ort", str(i))
            os.makedirs(case, exist_ok=True)
            with open(os.path.join(case, "input_0.pb"), "wb") as pb:
                pb.write(numpy_helper.from_array(t, "input").SerializeToString())
            f.write("%s %s\n" % (model, case))
    run(args, ["node", os.path.join(args.root, "tests", "reference", "ort-run.js"), "--pairs", pairs])
    out = []
    for i in range(len(tensors)):
        pb = onnx.TensorProto()
        with open(os.path.join(args.work, "ort", str(i), "output_0.pb"), "rb") as f:
            pb.ParseFromString(f.read())
        out.append(numpy_helper.to_array(pb).reshape(-1))
    return out


def case_digits(args):
    model = os.path.join(args.root, "examples", "digits", "digits.onnx")
    paths, pixels, labels = digits_images(args.work, 40)
    base = [args.ic, *paths, "-i=0to1", "-m=" + model, "-model-input-name=input", "-topk=3"]
    res = parse(run(args, base).stdout)
    if list(res) != paths or any(len(v) != 3 for v in res.values()):
        fail("not 3 labels for each of the 40 images, in order")
    tensors = [glow_tensor(px[:, :, None], "0to1")[None] for px in pixels]
    ort = ort_scores(args, model, tensors)
    right = 0
    for p, scores, label in zip(paths, ort, labels):
        top = res[p]
        if top[0][0] != int(scores.argmax()):
            fail("%s: image-classifier says %d, ONNX Runtime %d" % (p, top[0][0], int(scores.argmax())))
        for got, score in top:
            if abs(float(score) - scores[got]) > 2e-4 + 1e-5 * abs(scores[got]):
                fail("%s: label %d scores %s, ONNX Runtime %.6f" % (p, got, score, scores[got]))
        if [g for g, _ in top] != list(np.argsort(-scores, kind="stable")[:3]):
            fail("%s: top 3 %s, ONNX Runtime's %s" % (p, top, list(np.argsort(-scores)[:3])))
        right += top[0][0] == label
    print("digits: 40 images, top-1 as ONNX Runtime's for all, %d right by sklearn's labels" % right)
    if right < 36:
        fail("only %d of 40 digits right (digits.onnx is about 97%% accurate)" % right)
    for mb in ("4", "0"):
        again = run(args, base + ["-minibatch=" + mb]).stdout
        if again != run(args, base).stdout:
            fail("-minibatch=%s prints other lines" % mb)
    print("digits: -minibatch=4 and -minibatch=0 print the same lines")


def check_tensor(args, px, model, want, opts, what):
    n = want.size
    res = parse(run(args, [args.ic, px, "-m=" + model, "-topk=%d" % n, *opts]).stdout)
    got = printed_tensor(list(res.values())[0], n)
    err = np.abs(got - want.reshape(-1).astype(np.float64))
    if (err > 6e-5 + 1e-7 * np.abs(want.reshape(-1))).any():
        i = int(err.argmax())
        fail("%s: element %d is %r, Glow's formula gives %r" % (what, i, got[i], float(want.reshape(-1)[i])))


def case_modes(args):
    rng = np.random.default_rng(7)
    h, w = 4, 5
    px = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
    px[0, 0], px[0, 1] = (0, 0, 0), (255, 255, 255)
    colour = os.path.join(args.work, "colour.png")
    png.rgb(colour, px)
    models = {}
    for layout, shape in (("NCHW", [1, 3, h, w]), ("NHWC", [1, h, w, 3]), ("grey", [1, 1, h, w])):
        models[layout] = os.path.join(args.work, "flat-%s.onnx" % layout)
        flatten_model(models[layout], shape)
    count = 0
    for mode in MODES:
        for order in (None, "BGR", "RGB"):
            for layout in ("NCHW", "NHWC"):
                opts = ([] if mode is None else ["-image-mode=" + mode]) + \
                       ([] if order is None else ["-image-channel-order=" + order]) + \
                       ([] if layout == "NCHW" else ["-image-layout=NHWC"])
                want = glow_tensor(px, mode, order == "RGB", layout == "NHWC")
                check_tensor(args, colour, models[layout], want, opts, " ".join(opts) or "no options")
                count += 1
    # -i and -l are Glow's aliases.
    check_tensor(args, colour, models["NHWC"], glow_tensor(px, "neg1to1", False, True), ["-i=neg1to1", "-l=NHWC"],
                 "-i -l")
    mean, std = [np.float32(10), np.float32(100.5), np.float32(200)], [np.float32(2), np.float32(0.5), np.float32(8)]
    for order in ("BGR", "RGB"):
        check_tensor(args, colour, models["NCHW"], glow_tensor(px, "0to1", order == "RGB", False, mean, std),
                     ["-i=0to1", "-image-channel-order=" + order, "-mean=10,100.5,200", "-stddev=2,0.5,8"],
                     "-mean -stddev " + order)
        check_tensor(args, colour, models["NCHW"],
                     glow_tensor(px, "0to1", order == "RGB", False, IMAGENET_MEAN, IMAGENET_STD),
                     ["-i=0to1", "-image-channel-order=" + order, "-use-imagenet-normalization"],
                     "-use-imagenet-normalization " + order)
        count += 2
    g = px[:, :, :1].copy()
    grey = os.path.join(args.work, "grey.png")
    png.grey(grey, g[:, :, 0])
    check_tensor(args, grey, models["grey"], glow_tensor(g, "neg128to127"), ["-i=neg128to127"], "grey image")
    check_tensor(args, grey, models["grey"], glow_tensor(g, "0to1", False, False, [np.float32(3)], [np.float32(4)]),
                 ["-i=0to1", "-mean=3", "-stddev=4"], "grey -mean -stddev")
    print("modes: %d colour and 2 grey tensors as Glow's formula makes them" % (count + 3))

    # Other PNG forms decode to their 8-bit pixels (RGB order, NHWC, 0to255: the values themselves).
    pal = [(int(rng.integers(256)), int(rng.integers(256)), int(rng.integers(256))) for _ in range(16)]
    idx = rng.integers(0, 16, (h, w))
    forms = {
        "palette": (png.encode([list(r) for r in idx], png.PALETTE, palette=pal), np.array(pal, np.uint8)[idx]),
        "rgb16": (png.encode([[int(v) * 257 for v in r.reshape(-1)] for r in px], png.RGB, depth=16), px),
        "rgba": (png.encode([[int(v) for p_ in r for v in (*p_, 77)] for r in px], png.RGBA), px),
        "interlaced": (png.encode([[int(v) for v in r.reshape(-1)] for r in px], png.RGB, interlace=True), px),
    }
    bits = rng.integers(0, 2, (h, w))
    forms_grey = {
        "grey1": (png.encode([list(r) for r in bits], png.GREY, depth=1), (bits * 255).astype(np.uint8)[:, :, None]),
        "grey-alpha": (png.encode([[v for x in r for v in (int(x), 9)] for r in g[:, :, 0]], png.GREY_ALPHA), g),
        "grey16": (png.encode([[int(v) * 257 for v in r] for r in g[:, :, 0]], png.GREY, depth=16), g),
    }
    for name, (data, pixels) in list(forms.items()) + list(forms_grey.items()):
        path = os.path.join(args.work, name + ".png")
        with open(path, "wb") as f:
            f.write(data)
        model = models["NHWC"] if pixels.shape[2] == 3 else models["grey"]
        check_tensor(args, path, model, pixels.astype(np.float32), ["-i=0to255", "-image-channel-order=RGB"]
                     + (["-image-layout=NHWC"] if pixels.shape[2] == 3 else []), name + " PNG")
    print("modes: palette, 16-bit, RGBA, interlaced, 1-bit, grey+alpha and 16-bit grey PNGs decode to their pixels")


def glow_top(scores, k):
    """Glow's getTopKPairs: a min-queue of (score, index), replaced only by a strictly higher score."""
    q = []
    for i, s in enumerate(scores):
        if len(q) < k:
            heapq.heappush(q, (s, i))
        elif q[0][0] < s:
            heapq.heapreplace(q, (s, i))
    return [heapq.heappop(q) for _ in range(len(q))][::-1]


def glow_lines(path, top, offset=0):
    lines = []
    for i, (s, label) in enumerate(top):
        lines.append("%s\tLabel-K%d: %d (probability: %0.4f)\n" % (" File: " + path if i == 0 else "\t" * 5, i + 1,
                                                                   label - offset, s))
    return "".join(lines)


def case_format(args):
    h, w = 2, 5
    model = os.path.join(args.work, "flat.onnx")
    flatten_model(model, [1, 1, h, w])
    images = [np.array([[7, 3, 7, 9, 3], [9, 7, 1, 3, 9]], np.uint8), np.array([[5] * 5, [5, 5, 5, 4, 6]], np.uint8)]
    paths = []
    for i, im in enumerate(images):
        paths.append(os.path.join(args.work, "tie%d.png" % i))
        png.grey(paths[-1], im)
    for k, extra, offset, softmax in ((7, [], 0, False), (3, ["-label-offset=1"], 1, False), (10, [], 0, False),
                                      (4, ["-compute-softmax"], 0, True)):
        out = run(args, [args.ic, *paths, "-m=" + model, "-topk=%d" % k, "-i=0to1", *extra])
        want = "Model: %s\nRunning 1 thread(s).\n" % os.path.dirname(model)
        for im, p in zip(images, paths):
            s = glow_tensor(im[:, :, None], "0to1").reshape(-1)
            if softmax:  # Glow's applySoftmax: a float sum of exp, in order
                e = np.exp(s.astype(np.float32))
                total = np.float32(0)
                for v in e:
                    total = np.float32(total + v)
                s = e / total
            want += glow_lines(p, glow_top([float(np.float32(v)) for v in s], k), offset)
        if out.stdout != want:
            fail("-topk=%d %s: stdout\n%r\nGlow's\n%r" % (k, extra, out.stdout, want))
    # -expected-labels: one miss (image 0's top 2 are labels 5 and 3, image 1's 9 and 1).
    out = run(args, [args.ic, *paths, "-m=" + model, "-topk=2", "-i=0to1", "-expected-labels=3,3"], expect_rc=1)
    if " File: %s doesn't match index: 3 in the top 2 pairs\n" % paths[1] not in out.stdout or \
            "doesn't match index: 3 in the top 2 pairs" in out.stdout.split(paths[1])[0]:
        fail("-expected-labels=3,3: not one miss reported for %s:\n%s" % (paths[1], out.stdout))
    out = run(args, [args.ic, *paths, "-m=" + model, "-topk=0"])
    if "File:" in out.stdout:
        fail("-topk=0 printed labels:\n" + out.stdout)
    print("format: Glow's lines, order on equal scores, -label-offset, -compute-softmax, -expected-labels, -topk=0")


def caffe2_digits(args):
    out = os.path.join(args.work, "digits-caffe2")
    if not os.path.isdir(out):
        run(args, [sys.executable, os.path.join(args.root, "tests", "caffe2", "onnx2caffe2.py"),
                   os.path.join(args.root, "examples", "digits", "digits.onnx"), out])
    return out


def case_caffe2(args):
    net = caffe2_digits(args)
    onnx_model = os.path.join(args.root, "examples", "digits", "digits.onnx")
    paths, _, _ = digits_images(args.work, 12)
    opts = ["-i=0to1", "-model-input-name=input", "-topk=2", "-minibatch=3"]
    c2 = parse(run(args, [args.ic, *paths, "-m=" + net, *opts]).stdout)
    ox = parse(run(args, [args.ic, *paths, "-m=" + onnx_model, *opts]).stdout)
    for p in paths:
        if [l_ for l_, _ in c2[p]] != [l_ for l_, _ in ox[p]] or \
                any(abs(float(a) - float(b)) > 2e-4 for (_, a), (_, b) in zip(c2[p], ox[p])):
            fail("%s: the Caffe2 net says %s, the ONNX model %s" % (p, c2[p], ox[p]))
    err = run(args, [args.ic, *paths, "-m=" + net, "-i=0to1"], expect_rc=1).stderr
    if "-model-input-name: error: a Caffe2 net does not say which input takes the images" not in err:
        fail("no -model-input-name for a Caffe2 net: " + err)
    print("caffe2: 12 digits, minibatch 3: the Caffe2 net's labels and scores are the ONNX model's")


def case_profile(args):
    model = os.path.join(args.root, "examples", "digits", "digits.onnx")
    paths, pixels, _ = digits_images(args.work, 30, start=100)
    prof = os.path.join(args.work, "images.yml")
    out = run(args, [args.ic, *paths, "-i=0to1", "-m=" + model, "-model-input-name=input", "-dump-profile=" + prof])
    if "File:" in out.stdout:
        fail("-dump-profile printed labels:\n" + out.stdout)
    tensors = os.path.join(args.work, "tensors")
    os.makedirs(tensors, exist_ok=True)
    for i, px in enumerate(pixels):
        glow_tensor(px[:, :, None], "0to1").astype("<f4").tofile(os.path.join(tensors, "%04d.bin" % i))
    ref = os.path.join(args.work, "tensors.yml")
    run(args, [args.mp, "-model=" + model, "-input-dataset=input,rawbin," + tensors, "-dump-profile=" + ref])
    if open(prof, "rb").read() != open(ref, "rb").read():
        fail("the images' profile differs from model-profiler's on the same tensors (%s, %s)" % (prof, ref))
    print("profile: 30 images give model-profiler's bytes for the same tensors")
    bundle = os.path.join(args.work, "bundle")
    os.makedirs(bundle, exist_ok=True)
    run(args, [args.mc, "-model=" + model, "-load-profile=" + prof, "-emit-bundle=" + bundle])
    if not os.path.isfile(os.path.join(bundle, "digits.o")):
        fail("model-compiler -load-profile wrote no digits.o")
    base = [args.ic, *paths, "-i=0to1", "-m=" + model, "-model-input-name=input"]
    fl = parse(run(args, base).stdout)
    q = parse(run(args, base + ["-load-profile=" + prof]).stdout)
    same = sum(fl[p][0][0] == q[p][0][0] for p in paths)
    print("profile: model-compiler -load-profile compiled; int8 top-1 equals float top-1 on %d of 30" % same)
    if same < 27:
        fail("the quantized model agrees with the float one on only %d of 30 images" % same)
    # A Caffe2 profile: the input shape from the images, as model-compiler's -model-input gives it.
    net = caffe2_digits(args)
    prof2 = os.path.join(args.work, "caffe2.yml")
    run(args, [args.ic, *paths, "-i=0to1", "-m=" + net, "-model-input-name=input", "-dump-profile=" + prof2])
    run(args, [args.mc, "-model=" + net, "-model-input=input,float,[1,1,8,8]", "-load-profile=" + prof2,
               "-emit-bundle=" + bundle])
    print("profile: a Caffe2 net's profile from images compiles with -model-input=input,float,[1,1,8,8]")


def flip(data, i):
    """data with byte i changed (a CRC no longer matches)."""
    return data[:i] + bytes([data[i] ^ 1]) + data[i + 1:]


def case_bad(args):
    digits = os.path.join(args.root, "examples", "digits", "digits.onnx")
    flat = os.path.join(args.work, "flat-rgb.onnx")
    flatten_model(flat, [1, 3, 8, 8])
    good = os.path.join(args.work, "good.png")
    png.grey(good, np.zeros((8, 8), np.uint8))
    data = png.encode([[1] * 8] * 8, png.GREY)
    bad = {
        "text.png": (b"hello, not an image\n", r"not a PNG image \(no PNG signature\)"),
        "empty.png": (b"", r"not a PNG image"),
        "cut.png": (data[:len(data) - 20], r"the PNG file is cut short \(truncated\)"),
        "crc.png": (flip(data, data.index(b"IDAT") + 6), r"not a valid PNG image \(libpng: .*CRC"),
        "image.ppm": (b"P6\n8 8\n255\n" + bytes(192), r"not a PNG image .*: it is a PPM image; convert it to PNG"),
        "big.png": (png.encode([[1] * 9] * 9, png.GREY),
                    r"the image \(9x9, grey\) makes the input 'input' float\[1,1,9,9\] \(NCHW\), but the model's is "
                    r"float\[1,1,8,8\]; the model takes 8x8 images \(width x height\): resize the image"),
        "colour.png": (png.encode([[5] * 24] * 8, png.RGB),
                       r"the image \(8x8, colour\) makes the input 'input' float\[1,3,8,8\] \(NCHW\), but the "
                       r"model's is float\[1,1,8,8\]; the model takes grey images \(1 channel\): convert the image "
                       r"to greyscale"),
    }
    prof = os.path.join(args.work, "bad.yml")
    for name, (content, pattern) in bad.items():
        path = os.path.join(args.work, name)
        with open(path, "wb") as f:
            f.write(content)
        shape_only = name in ("big.png", "colour.png")  # a good PNG: only the model refuses it
        for model in ([digits] if shape_only else [digits, flat]):
            imgs = [path] if model == flat or shape_only else [good, path]
            err = run(args, [args.ic, *imgs, "-m=" + model, "-dump-profile=" + prof], expect_rc=1).stderr
            if not re.search("^" + re.escape(path) + ": error: " + pattern, err, re.M):
                fail("%s: stderr does not match %r:\n%s" % (name, pattern, err))
            if os.path.exists(prof) or any(f.startswith("bad.yml") for f in os.listdir(args.work)):
                fail(name + ": a profile (or its temporary) was left")
    err = run(args, [args.ic, good, "-m=" + flat], expect_rc=1).stderr
    if not re.search(re.escape(good) + r": error: the image \(8x8, grey\) .* but the model's is float\[1,3,8,8\]; "
                     r"the model takes colour images \(3 channels\): convert the image to RGB", err):
        fail("grey image for a colour model: " + err)
    err = run(args, [args.ic, good, os.path.join(args.work, "big.png"), "-m=" + digits], expect_rc=1).stderr
    if not re.search(re.escape(os.path.join(args.work, "big.png")) + r": error: the image is 9x9 grey, but .* is 8x8 "
                     r"grey: every image must have the same size and channels", err):
        fail("images of two sizes: " + err)
    nhwc = os.path.join(args.work, "flat-nhwc.onnx")
    flatten_model(nhwc, [1, 8, 8, 3])
    err = run(args, [args.ic, os.path.join(args.work, "colour.png"), "-m=" + nhwc], expect_rc=1).stderr
    if "the model is NHWC: pass -image-layout=NHWC" not in err:
        fail("an NHWC model without -image-layout=NHWC: " + err)
    print("bad: %d bad images, grey for colour, two sizes and a layout mismatch each named, no profile left"
          % len(bad))


def case_options(args):
    img = os.path.join(args.work, "g.png")
    png.grey(img, np.zeros((8, 8), np.uint8))
    model = os.path.join(args.root, "examples", "digits", "digits.onnx")
    checks = [
        (["-image-mode=0to2"], r"-image-mode: error: '0to2' is not one of: neg1to1, 0to1, 0to255, neg128to127, U16, S16"),
        (["-image-layout=NonImage"], r"-image-layout: error: NonImage is Glow's layout for \.npy tensors"),
        (["-image-channel-order=GRB"], r"-image-channel-order: error: 'GRB' is not one of: BGR, RGB"),
        (["-emit-bundle=out"], r"-emit-bundle: error: .*use model-compiler"),
        (["-time"], r"-time: error: .*glowc-run -runs=<N>"),
        (["-minibatch-threads=4"], r"-minibatch-threads: error: "),
        (["-input-layout=NHWC"], r"-input-layout: error: .*see -image-layout"),
        (["-mean=1,2"], r"-mean: error: 2 values, but the images have 1 channel \(grey\)"),
        (["-use-imagenet-normalization", "-mean=1"], r"-use-imagenet-normalization: error: cannot be used with"),
        (["-minibatch=3", img], r"-minibatch: error: 2 images are not a multiple of the minibatch \(3\)"),
        (["-expected-labels=1,2,3"], r"-expected-labels: error: 3 labels for 1 images"),
        (["-dump-profile=p.yml", "-load-profile=p.yml"], r"-dump-profile: error: cannot be given with -load-profile"),
        (["-dump-profile=/nonexistent/p.yml"], r"cannot write the -dump-profile file"),
        (["-"], r"streaming mode .* is not supported"),
        (["-label-offset=-1"], r"-label-offset: error: '-1' is not a whole number from 0 to"),
        (["-expected-labels=1,x"], r"-expected-labels: error: '1,x' is not a comma list of labels"),
        (["-mattr=+avx2"], r"-mattr: error: .*code generation options belong to model-compiler"),
        (["-enable-rowwise"], r"-load-profile: error: the quantization options need a profile"),
    ]
    for opts, pattern in checks:
        err = run(args, [args.ic, img, "-m=" + model, *opts], expect_rc=1).stderr
        if not re.search(pattern, err):
            fail("%s: stderr does not match %r:\n%s" % (opts, pattern, err))
    err = run(args, [args.ic, "-m=" + model], expect_rc=1).stderr
    if "no images: list PNG files" not in err:
        fail("no images: " + err)
    help_text = run(args, [args.ic, "-help"]).stdout
    for want in ("reference interpreter", "-image-mode", "-minibatch", "-mean=", "-emit-bundle"):
        if want not in help_text:
            fail("-help does not mention %r" % want)
    # Glow's options listed once, under OPTIONS (the table's), not in a second list.
    options = help_text.split("\nOPTIONS:\n")[1].split("\n\n")[0]
    for want in ("-label-offset=<N>", "-expected-labels=", "-input-image-list-file=", "-compute-softmax"):
        if options.count("\n  " + want) != 1:
            fail("-help's OPTIONS do not list %r once:\n%s" % (want, help_text))
    print("options: %d refusals and bad values say what to do; -help names the interpreter" % (len(checks) + 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    for a in ("ic", "mc", "mp", "root", "work"):
        ap.add_argument("--" + a, required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    globals()["case_" + args.case.replace("-", "_")](args)


if __name__ == "__main__":
    main()
