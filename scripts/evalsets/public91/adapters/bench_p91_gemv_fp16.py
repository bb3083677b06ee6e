"""Adapter of p91-gemv-fp16 (kforecast's own code): INT8 dequant-GEMV with fp16 activations,
x (4, 16384) fp16, weight_int8 (16384, 16384), scale and bias (16384,) fp32; output fp16.
The source's largest case is rows 4, 2048 x 2048 (a Jetson Orin); the features raised to
16384 (a 256 MiB int8 weight) to fill the GPU. Versions: the source's torch reference and its
six CUDA kernels (naive, warp, tiled, vec4, half2, wide); see _p91gemv.py. fp16 output:
rtol 2e-3 (one fp16 ulp of an output near 1024 is 1e-3 of it), atol 0.1."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p91gemv as gemv  # noqa: E402

TOL = {"rtol": 2e-3, "atol": 0.1}
make_inputs, build, reference = gemv.adapter(4, 16384, 16384, torch.float16)
