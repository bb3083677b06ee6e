"""conv1d_halo: cupy RawModule programs; conv1d(x [rows, n] f32, w [K] f32) -> y [rows, n]
with y[r, i] = sum_k w[k] * x[r, i + k - K // 2] (zero outside the row), K odd."""
import cupy as cp
import torch
from progbuild import load_program

ROWS, N, K = 2048, 32771, 31
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, N, device="cuda", generator=g)
    w = torch.randn(K, device="cuda", generator=g) / K
    return (x, w)


def build(path):
    prog = load_program(path)
    return lambda x, w: torch.from_dlpack(prog.conv1d(cp.from_dlpack(x), cp.from_dlpack(w)))


def reference(x, w):
    k = w.numel()
    y = torch.nn.functional.conv1d(x.double().unsqueeze(1), w.double().view(1, 1, k), padding=k // 2)
    return y.squeeze(1)
