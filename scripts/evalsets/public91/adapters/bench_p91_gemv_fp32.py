"""Adapter of p91-gemv-fp32 (kforecast's own code): INT8 dequant-GEMV with fp32 activations,
x (1, 16384) fp32, weight_int8 (16384, 16384), scale and bias (16384,) fp32; output fp32.
The source's cases are rows 1 (and 4), up to 2048 x 2048 (a Jetson Orin); the features raised
to 16384 (a 256 MiB int8 weight) to fill the GPU. Versions: the source's torch reference and
its five CUDA kernels that take fp32 activations (naive, warp, tiled, vec4, wide; the half2
kernel takes fp16 only); see _p91gemv.py. Sums of 16384 products: atol 1e-2."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p91gemv as gemv  # noqa: E402

TOL = {"rtol": 1e-3, "atol": 1e-2}
make_inputs, build, reference = gemv.adapter(1, 16384, 16384, torch.float32)
