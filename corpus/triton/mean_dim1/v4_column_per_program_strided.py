"""Mean over dim 1, ported from a thread-per-output loop: one program per (column, batch)
walks down the R rows 256 at a time, so every load gathers 256 floats a whole row
(4 KB) apart; 1024 x 32 = 32768 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = mean_dim1(x); x: f32[32, 2048, 1024] randn; rtol = 1e-3; atol = 1e-5
@triton.jit
def mean_dim1_kernel(x_ptr, out_ptr, R, C, stride_b, stride_r, r_per_program, inv_r,
                     BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    col = tl.program_id(0)
    b = tl.program_id(1)
    x_col = x_ptr + b * stride_b + col
    acc = tl.zeros([BLOCK_R], dtype=tl.float32)
    for start in range(0, r_per_program, BLOCK_R):
        rows = start + tl.arange(0, BLOCK_R)
        acc += tl.load(x_col + rows * stride_r, mask=rows < R, other=0.0)
    tl.store(out_ptr + b * C + col, tl.sum(acc, axis=0) * inv_r)


def mean_dim1(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    B, R, C = x.shape
    out = torch.empty((B, C), device=x.device, dtype=torch.float32)
    BLOCK_R = 256
    grid = (C, B)
    mean_dim1_kernel[grid](x, out, R, C, x.stride(0), x.stride(1), R, 1.0 / R,
                           BLOCK_R=BLOCK_R, BLOCK_C=1, num_warps=4)
    return out
