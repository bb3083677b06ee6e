"""Adapter of p25-kb-gemm-add-relu (kforecast's own code): relu(x @ W^T + b), x 1024 x 8192
float32, W 8192 x 8192 and b 8192 drawn once at random (seed fixed) and copied into every
version's parameters by shape (KernelBench level 2 problem 76, ModelNew(8192, 8192, (8192,))).
Triton's float32 dot uses tf32, hence the tolerance."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p25common as kf  # noqa: E402

M, K, N = 1024, 8192, 8192
TOL = {"rtol": 2e-2, "atol": 2e-2}
_W = {}


def params():
    if not _W:
        g = torch.Generator(device="cuda").manual_seed(2025)
        _W[(N, K)] = torch.randn(N, K, device="cuda", generator=g) / math.sqrt(K)
        _W[(N,)] = 0.1 * torch.randn(N, device="cuda", generator=g)
    return _W


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(M, K, device="cuda", generator=g),)


def reference(x):
    w = params()
    return torch.relu(x.double() @ w[(N, K)].double().t() + w[(N,)].double())


def build(path):
    model = kf.set_params(kf.kernelbench_model(path, (K, N, (N,))), by_shape=params())

    def fn(x):
        with torch.no_grad():
            return model(x)
    return fn
