"""Adapter of p38-wj-spmv (kforecast's own code): y = A x, A a square CSR matrix of 2^20 rows
with 8-24 nonzeros a row at random columns, float64 values and x uniform in [-1, 1]."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

NROW = 1 << 20
TOL = {"rtol": 1e-9, "atol": 1e-9}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    counts = torch.randint(8, 25, (NROW,), device="cuda", generator=g)
    ptr_ = torch.zeros(NROW + 1, device="cuda", dtype=torch.int64)
    ptr_[1:] = torch.cumsum(counts, 0)
    nnz = int(ptr_[-1])
    cols = torch.randint(0, NROW, (nnz,), device="cuda", generator=g).to(torch.int32)
    vals = torch.rand(nnz, device="cuda", generator=g, dtype=torch.float64) * 2 - 1
    x = torch.rand(NROW, device="cuda", generator=g, dtype=torch.float64) * 2 - 1
    y = torch.empty(NROW, device="cuda", dtype=torch.float64)
    return (ptr_.to(torch.int32), cols, vals, x, y)


def reference(ptr_, cols, vals, x, y):
    rows = torch.repeat_interleave(torch.arange(NROW, device=x.device), (ptr_[1:] - ptr_[:-1]).long())
    out = torch.zeros(NROW, device=x.device, dtype=torch.float64)
    out.index_add_(0, rows, vals * x[cols.long()])
    return out


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17", "-Xlinker", "--no-as-needed", "-lcusparse"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 5

    def fn(ptr_, cols, vals, x, y):
        lib.kf_run(NROW, ptr(ptr_), ptr(cols), ptr(vals), ptr(x), ptr(y))
        return y
    return fn
