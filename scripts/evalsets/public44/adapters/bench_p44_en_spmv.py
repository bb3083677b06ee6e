"""Adapter of p44-en-spmv (kforecast's own code): float32 y = A x for a square sparse matrix of
2^22 rows, 4 nonzeros a row in the source program's pattern (row r, k = 0..3: column
(7 r + 13 k) mod cols), values and x uniform in [-1, 1), given both as COO (row, col, val) and CSR
(rowPtr, col, val) as the program builds them; each version's kf_run (main()'s lines: the COO
step zeroes y first) with one y buffer passed for both of main()'s output names."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

ROWS = COLS = 1 << 22
PER_ROW = 4
NNZ = ROWS * PER_ROW
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    r = torch.arange(ROWS, device="cuda", dtype=torch.int64)
    k = torch.arange(PER_ROW, device="cuda", dtype=torch.int64)
    row = r.repeat_interleave(PER_ROW).to(torch.int32)
    col = ((r[:, None] * 7 + k[None, :] * 13) % COLS).reshape(-1).to(torch.int32)
    row_ptr = (torch.arange(ROWS + 1, device="cuda", dtype=torch.int64) * PER_ROW).to(torch.int32)
    val = torch.rand(NNZ, device="cuda", generator=g) * 2 - 1
    x = torch.rand(COLS, device="cuda", generator=g) * 2 - 1
    return (row, row_ptr, col, val, x)


def reference(row, row_ptr, col, val, x):
    prod = val.double() * x.double()[col.long()]
    return prod.view(ROWS, PER_ROW).sum(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 7 + [ctypes.c_int, ctypes.c_int]

    def fn(row, row_ptr, col, val, x):
        y = torch.empty(ROWS, device="cuda")
        lib.kf_run(ptr(row), ptr(row_ptr), ptr(col), ptr(val), ptr(x), ptr(y), ptr(y), ROWS, NNZ)
        return y
    return fn
