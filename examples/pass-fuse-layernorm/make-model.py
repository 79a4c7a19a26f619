#!/usr/bin/env python3
"""Writes layernorm-mlp.onnx, the model the fuse-layernorm example works on: two
linear layers, each followed by a torch LayerNorm (one with a learned scale and
bias, one without), exported at opset 14, where a layer norm becomes nine nodes.
    /usr/bin/python3 make-model.py   (torch 1.13; deterministic)"""
import os

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.LayerNorm(32), nn.ReLU(),
                      nn.Linear(32, 8), nn.LayerNorm(8, elementwise_affine=False)).eval()
with torch.no_grad():  # a scale and bias that are not the initial ones and zeros
    model[1].weight.uniform_(0.5, 1.5)
    model[1].bias.uniform_(-0.5, 0.5)
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layernorm-mlp.onnx")
torch.onnx.export(model, torch.zeros(2, 16), out, opset_version=14, input_names=["input"], output_names=["output"])
