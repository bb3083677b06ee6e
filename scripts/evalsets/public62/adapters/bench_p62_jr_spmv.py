"""Adapter of p62-jr-spmv (kforecast's own code): int32 SpMV, M = N = 1024 (the programs'
#defines), the programs' sparsity pattern ((i + j) / 2) % 2 (524288 non-zeros) with values in
[1, 9] and a vector in [0, 999) drawn here. Inputs: CSR values, column indices, row pointers
(as getCSRpointers builds them, row by row), COO row indices (as getCOOarrays), the vector.
Each version's `extern "C" kf_run(val, colInd, rowptr, rowInd, vec, out, nnz)` (the launch lines
of its main()) fills out (1024,) int32; float64 reference: the dense product."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = 1024
TOL = {"rtol": 0.0, "atol": 0.0}


def _dense(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    i = torch.arange(M, device="cuda").view(-1, 1)
    j = torch.arange(N, device="cuda").view(1, -1)
    mask = ((i + j) // 2) % 2 == 1
    vals = torch.randint(1, 10, (M, N), device="cuda", dtype=torch.int32, generator=g)
    vec = torch.randint(0, 999, (N,), device="cuda", dtype=torch.int32, generator=g)
    return torch.where(mask, vals, torch.zeros_like(vals)), vec


def make_inputs(seed):
    a, vec = _dense(seed)
    rows, cols = torch.nonzero(a, as_tuple=True)  # row-major order, as the programs scan
    val = a[rows, cols].contiguous()
    rowptr = torch.zeros(M + 1, device="cuda", dtype=torch.int32)
    rowptr[1:] = torch.cumsum((a != 0).sum(dim=1), 0).to(torch.int32)
    return (val, cols.to(torch.int32).contiguous(), rowptr, rows.to(torch.int32).contiguous(), vec)


def reference(val, col, rowptr, row, vec):
    a = torch.zeros(M, N, device="cuda", dtype=torch.float64)
    a[row.long(), col.long()] = val.double()
    return a @ vec.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 6 + [ctypes.c_int]

    def run(val, col, rowptr, row, vec):
        out = torch.empty(M, device="cuda", dtype=torch.int32)
        fn(ptr(val), ptr(col), ptr(rowptr), ptr(row), ptr(vec), ptr(out), val.numel())
        return out
    return run
