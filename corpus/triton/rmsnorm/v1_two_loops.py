"""RMSNorm, one program per row, two loops over the row in chunks of 1024: sum of
squares, then scale and store (x read twice); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rmsnorm(x, w); x: f32[8192, 4096]; w: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
        acc += x * x
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
        w = tl.load(w_ptr + cols, mask=mask)
        tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)


def rmsnorm(x: torch.Tensor, w: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    rmsnorm_kernel[(n_rows,)](x, w, y, x.stride(0), n_cols, eps, BLOCK_SIZE=1024, num_warps=4)
    return y
