"""Adapter of p91-rmsnorm (kforecast's own code): RMSNorm over the last dimension,
fp32 x (32768, 4096) normal, weight (4096,) normal (as the source's benchmark draws them),
eps 1e-6. The source's largest case is 128 x 4096 (a Jetson Orin); rows raised to 32768
(2^27 elements) to fill the GPU. Versions: the source's torch reference and its three CUDA
kernels (naive shared-memory tree, warp shuffle, float4), each called as kf_run(x, weight, eps);
see _p91common.py. Float64 reference: x * rsqrt(mean(x^2) + eps) * weight in float64."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p91common as common  # noqa: E402

ROWS, HIDDEN, EPS = 32768, 4096, 1e-6
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    x = torch.randn(ROWS, HIDDEN, device="cuda", generator=g)
    weight = torch.randn(HIDDEN, device="cuda", generator=g)
    return (x, weight, EPS)


def build(path):
    return common.build(path, make_inputs)


def reference(x, weight, eps):
    xd = x.double()
    return xd * torch.rsqrt(xd.pow(2).mean(dim=-1, keepdim=True) + eps) * weight.double()
