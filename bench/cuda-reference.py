#!/usr/bin/env python3
"""The references for CUDA bundles' latency, on the GPU machine (the device tool's, whose
python3 has torch and onnxruntime): the same architectures as tests/models/gen-models.py
(torchvision resnet18 and mobilenet_v2, the 2-layer TransformerEncoder), at batch 1 and 8,
timed in ONNX Runtime on the CPU and in PyTorch on the GPU. Weights are random: latency does
not depend on them. Prints one line per model, batch and runtime: the median and minimum
milliseconds of `runs` runs after 5 untimed ones (PyTorch's include the copies of the input
to the GPU and the output back, as glowc's do).

    python3 bench/cuda-reference.py [runs] [threads]    (threads: ONNX Runtime's intra-op, default 1)
"""
import io
import statistics
import sys
import time

import torch
import torchvision
from torch import nn


def models():
    layer = nn.TransformerEncoderLayer(d_model=128, nhead=4, dim_feedforward=256, dropout=0.0, batch_first=True)
    return {
        "resnet18": (torchvision.models.resnet18(), (3, 224, 224)),
        "mobilenet_v2": (torchvision.models.mobilenet_v2(), (3, 224, 224)),
        "transformer": (nn.TransformerEncoder(layer, num_layers=2), (16, 128)),
    }


def timed(fn, runs):
    for _ in range(5):
        fn()
    ms = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ms.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ms), min(ms)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    try:
        import onnxruntime as ort
    except ImportError:
        ort = None
        print("onnxruntime: not installed here, skipped")
    cuda = torch.cuda.is_available()
    print(f"torch {torch.__version__}, GPU: {torch.cuda.get_device_name(0) if cuda else 'none'}; "
          f"onnxruntime {ort.__version__ if ort else '-'} on the CPU with {threads} thread(s)")
    torch.manual_seed(0)
    for name, (model, shape) in models().items():
        model.eval()
        for batch in (1, 8):
            x = torch.randn((batch,) + shape)
            if ort:
                buf = io.BytesIO()
                torch.onnx.export(model, x, buf, opset_version=14, input_names=["input"], output_names=["output"],
                                  dynamo=False)
                opts = ort.SessionOptions()
                opts.intra_op_num_threads = threads
                sess = ort.InferenceSession(buf.getvalue(), opts, providers=["CPUExecutionProvider"])
                feed = {"input": x.numpy()}
                med, low = timed(lambda: sess.run(None, feed), runs)
                print(f"{name:14s} batch {batch}  onnxruntime-cpu  median_ms {med:8.3f} min_ms {low:8.3f}")
            if cuda:
                gm = model.cuda()
                with torch.no_grad():
                    med, low = timed(lambda: gm(x.cuda()).cpu(), runs)
                print(f"{name:14s} batch {batch}  torch-cuda       median_ms {med:8.3f} min_ms {low:8.3f}")
                model.cpu()


if __name__ == "__main__":
    main()
