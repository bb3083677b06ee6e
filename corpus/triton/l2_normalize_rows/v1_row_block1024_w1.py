"""Row-wise L2 normalisation y[r] = x[r] / max(||x[r]||, eps): one program per row loads
the whole row (BLOCK = 1024 >= n_cols, masked), reduces the sum of squares in
registers and stores the scaled row; one warp (32 values per thread)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = l2_normalize_rows(x); x: f32[65536, 1024]; rtol = 1e-4; atol = 1e-6
@triton.jit
def l2norm_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    norm = tl.sqrt(tl.sum(x * x, axis=0))
    tl.store(y_ptr + row * stride + cols, x / tl.maximum(norm, eps), mask=mask)


def l2_normalize_rows(x: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    l2norm_kernel[(n_rows,)](x, y, n_rows, n_cols, x.stride(0), eps, BLOCK=triton.next_power_of_2(n_cols),
                             num_warps=1)
    return y
