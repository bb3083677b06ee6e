"""spmv_csr: cupy RawKernel programs; spmv(row_ptr int32 [rows + 1], col_idx int32 [nnz],
values f32 [nnz], x f32 [cols]) -> y f32 [rows], y = A @ x for a CSR matrix A."""
import cupy as cp
import torch
from progbuild import load_program

ROWS = (1 << 20) + 17
COLS = 1 << 20
MAX_ROW = 128  # row lengths uniform in [0, MAX_ROW): about 64M nonzeros
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    lens = torch.randint(0, MAX_ROW, (ROWS,), device="cuda", generator=g, dtype=torch.int32)
    row_ptr = torch.zeros(ROWS + 1, device="cuda", dtype=torch.int32)
    row_ptr[1:] = torch.cumsum(lens, 0, dtype=torch.int32)
    nnz = int(row_ptr[-1])
    col_idx = torch.randint(0, COLS, (nnz,), device="cuda", generator=g, dtype=torch.int32)
    values = torch.randn(nnz, device="cuda", generator=g)
    x = torch.randn(COLS, device="cuda", generator=g)
    return (row_ptr, col_idx, values, x)


def build(path):
    prog = load_program(path)

    def fn(row_ptr, col_idx, values, x):
        y = prog.spmv(cp.from_dlpack(row_ptr), cp.from_dlpack(col_idx), cp.from_dlpack(values),
                      cp.from_dlpack(x))
        return torch.from_dlpack(y)

    return fn


def reference(row_ptr, col_idx, values, x):
    rows = row_ptr.numel() - 1
    lens = (row_ptr[1:] - row_ptr[:-1]).long()
    row_of = torch.repeat_interleave(torch.arange(rows, device=x.device), lens)
    prod = values.double() * x.double()[col_idx.long()]
    return torch.zeros(rows, device=x.device, dtype=torch.float64).index_add_(0, row_of, prod)
