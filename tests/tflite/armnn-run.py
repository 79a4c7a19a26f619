"""Runs one TFLite model on Arm NN's TfLite parser and CpuRef backend (pyarmnn), the tflite tests'
reference runtime: armnn-run.py MODEL OUT_DIR NAME=FILE.npy... writes each output to
OUT_DIR/<output name>.npy. One process per model: Arm NN can abort on operators it lacks."""
import os
import sys

import numpy as np
import pyarmnn as ann


def main():
    path, out_dir, *args = sys.argv[1:]
    feeds = dict(a.split("=", 1) for a in args)
    parser = ann.ITfLiteParser()
    net = parser.CreateNetworkFromBinaryFile(path)
    runtime = ann.IRuntime(ann.CreationOptions())
    opt, messages = ann.Optimize(net, [ann.BackendId("CpuRef")], runtime.GetDeviceSpec(), ann.OptimizerOptions())
    net_id, _ = runtime.LoadNetwork(opt)
    bindings, data = [], []
    for name in parser.GetSubgraphInputTensorNames(0):
        bindings.append(parser.GetNetworkInputBindingInfo(0, name))
        data.append(np.load(feeds.pop(name)))
    if feeds:
        sys.exit(f"armnn-run: {path} has no inputs {sorted(feeds)}")
    names = parser.GetSubgraphOutputTensorNames(0)
    outs = ann.make_output_tensors([parser.GetNetworkOutputBindingInfo(0, n) for n in names])
    runtime.EnqueueWorkload(net_id, ann.make_input_tensors(bindings, data), outs)
    for name, y in zip(names, ann.workload_tensors_to_ndarray(outs)):
        np.save(os.path.join(out_dir, name + ".npy"), y)


if __name__ == "__main__":
    main()
