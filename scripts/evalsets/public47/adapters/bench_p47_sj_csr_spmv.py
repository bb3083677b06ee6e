"""Adapter of p47-sj-csr-spmv (kforecast's own code): y = A x for a random square CSR matrix
in the testbench's 1-based format (row pointers JR start at 1, column indices JC are 1-based),
2^20 rows with 1 to 63 nonzeros each (the testbench reads a Matrix Market file instead)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = 1 << 20  # a multiple of 1024: the testbench's grids (no bounds checks) cover the rows exactly
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    counts = torch.randint(1, 64, (M,), device="cuda", generator=g)
    jr = torch.zeros(M + 1, device="cuda", dtype=torch.int64)
    jr[1:] = torch.cumsum(counts, 0)
    nnz = int(jr[-1])
    jc = torch.randint(0, M, (nnz,), device="cuda", generator=g, dtype=torch.int32) + 1
    aa = torch.rand(nnz, device="cuda", generator=g) * 2 - 1
    x = torch.rand(M, device="cuda", generator=g) * 2 - 1
    y = torch.empty(M, device="cuda")
    return ((jr + 1).to(torch.int32), jc, aa, x, y)


def reference(jr, jc, aa, x, y):
    counts = (jr[1:] - jr[:-1]).long()
    rows = torch.repeat_interleave(torch.arange(M, device="cuda"), counts)
    prod = aa.double() * x.double()[jc.long() - 1]
    return torch.zeros(M, device="cuda", dtype=torch.float64).index_add_(0, rows, prod)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 5 + [ctypes.c_int]

    def fn(jr, jc, aa, x, y):
        y.zero_()  # main() copies zeros into device_y before every launch
        lib.kf_run(ptr(jr), ptr(jc), ptr(aa), ptr(x), ptr(y), M)
        return y
    return fn
