"""Adapter of the "pc-" sgemv family (kforecast's own code): y = A x with A row-major
M x N float32, through each program's `kf_run` (M and N passed as main() reads them from
argv). Sizes: M = 16384, N = 4096 (256 MB of A; N a multiple of 128 as Sgemv_v1 needs)."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda"))
import pc_common  # noqa: E402

M, N = 16384, 4096
TOL = {"rtol": 1e-4, "atol": 1e-3}  # float32 dot products of 4096 terms in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g), torch.randn(N, device="cuda", generator=g))


def reference(a, x):
    return a.double() @ x.double()


def build(path):
    run = pc_common.entry(path, ("-O3", "-lcublas"))

    def fn(a, x):
        m, n = a.shape
        y = torch.empty(m, device=a.device, dtype=a.dtype)
        run(a, x, y, None, m, n)
        return y

    return fn
