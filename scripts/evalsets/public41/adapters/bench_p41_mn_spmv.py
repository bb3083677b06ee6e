"""Adapter of p41-mn-spmv (kforecast's own code): y = A x in double, A a random CSR matrix of
2^20 x 2^20 with 8-56 nonzeros a row (columns uniform, sorted within each row), x uniform in
[-1, 1], through each version's kf_run (its host function's launch lines on device buffers).
The matrix is the same for every draw (seed 0): the draws vary x and the values."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = 1 << 20
TOL = {"rtol": 1e-9, "atol": 1e-9}
_PATTERN = {}


def _pattern():
    if "p" not in _PATTERN:
        g = torch.Generator(device="cuda").manual_seed(0)
        lens = torch.randint(8, 57, (M,), device="cuda", generator=g, dtype=torch.int64)
        irp = torch.zeros(M + 1, device="cuda", dtype=torch.int64)
        irp[1:] = torch.cumsum(lens, 0)
        nz = int(irp[-1])
        rows = torch.repeat_interleave(torch.arange(M, device="cuda"), lens)
        cols = torch.randint(0, N, (nz,), device="cuda", generator=g, dtype=torch.int64)
        key, _ = torch.sort(rows * N + cols)
        _PATTERN["p"] = (irp.to(torch.int32), (key % N).to(torch.int32), rows, nz)
    return _PATTERN["p"]


def make_inputs(seed):
    irp, ja, rows, nz = _pattern()
    g = torch.Generator(device="cuda").manual_seed(seed)
    vals = torch.rand(nz, device="cuda", generator=g, dtype=torch.float64) * 2 - 1
    x = torch.rand(N, device="cuda", generator=g, dtype=torch.float64) * 2 - 1
    y = torch.empty(M, device="cuda", dtype=torch.float64)
    return (irp.clone(), ja.clone(), vals, x, y)


def reference(irp, ja, vals, x, y):
    _, _, rows, _ = _pattern()
    return torch.zeros(M, device=x.device, dtype=torch.float64).index_add_(0, rows, vals * x[ja.long()])


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 5 + [ctypes.c_int] * 3

    def fn(irp, ja, vals, x, y):
        lib.kf_run(ptr(irp), ptr(ja), ptr(vals), ptr(x), ptr(y), M, N, vals.numel())
        return y
    return fn
