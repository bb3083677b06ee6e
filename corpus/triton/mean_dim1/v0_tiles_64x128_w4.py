"""Mean over dim 1 of x[B, R, C]: one program per (128 columns, batch) walks down all R
rows in 64 x 128 tiles (coalesced row segments), accumulates a 2-D register tile,
reduces it along axis 0 and scales by 1/R; 8 x 32 = 256 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = mean_dim1(x); x: f32[32, 2048, 1024] randn; rtol = 1e-3; atol = 1e-5
@triton.jit
def mean_dim1_kernel(x_ptr, out_ptr, R, C, stride_b, stride_r, r_per_program, inv_r,
                     BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    b = tl.program_id(1)
    col_mask = cols < C
    x_b = x_ptr + b * stride_b
    acc = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for start in range(0, r_per_program, BLOCK_R):
        rows = start + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < R) & col_mask[None, :]
        acc += tl.load(x_b + rows[:, None] * stride_r + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + b * C + cols, tl.sum(acc, axis=0) * inv_r, mask=col_mask)


def mean_dim1(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    B, R, C = x.shape
    out = torch.empty((B, C), device=x.device, dtype=torch.float32)
    BLOCK_R, BLOCK_C = 64, 128
    grid = (triton.cdiv(C, BLOCK_C), B)
    mean_dim1_kernel[grid](x, out, R, C, x.stride(0), x.stride(1), R, 1.0 / R,
                           BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C, num_warps=4)
    return out
