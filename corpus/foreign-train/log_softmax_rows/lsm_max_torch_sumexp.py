"""Row-wise log-softmax: a Triton max kernel, the log-sum-exp in torch, a Triton normalise kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def row_max_kernel(x_ptr, max_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * stride_row
    running = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(base + cols, mask=cols < n_cols, other=float("-inf"))
        running = tl.maximum(running, v)
    tl.store(max_ptr + row, tl.max(running, axis=0))


@triton.jit
def subtract_lse_kernel(x_ptr, y_ptr, lse_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    off = row.to(tl.int64) * stride_row + cols
    x = tl.load(x_ptr + off, mask=mask)
    lse = tl.load(lse_ptr + row)
    tl.store(y_ptr + off, x - lse, mask=mask)


def log_softmax_rows(x: torch.Tensor) -> torch.Tensor:
    assert x.dim() == 2 and x.is_cuda
    x = x.contiguous()
    n_rows, n_cols = x.shape
    row_max = torch.empty(n_rows, device=x.device, dtype=torch.float32)
    row_max_kernel[(n_rows,)](x, row_max, n_cols, x.stride(0), BLOCK=1024, num_warps=4)
    sum_exp = torch.exp(x - row_max[:, None]).sum(dim=1)
    lse = row_max + torch.log(sum_exp)
    y = torch.empty_like(x)
    BLOCK = 1024
    subtract_lse_kernel[(n_rows, triton.cdiv(n_cols, BLOCK))](x, y, lse, n_cols, x.stride(0),
                                                              BLOCK=BLOCK, num_warps=4)
    return y
