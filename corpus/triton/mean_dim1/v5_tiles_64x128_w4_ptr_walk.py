"""Mean over dim 1: the 64 x 128 tiles of v0 written with a pointer tile that is advanced
by 64 rows each step and a row counter for the mask (same loads, same programs, same
reduction); 8 x 32 = 256 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = mean_dim1(x); x: f32[32, 2048, 1024] randn; rtol = 1e-3; atol = 1e-5
@triton.jit
def mean_dim1_kernel(x_ptr, out_ptr, R, C, stride_b, stride_r, r_per_program, inv_r,
                     BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_c = tl.program_id(0)
    pid_b = tl.program_id(1)
    offs_c = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    offs_r = tl.arange(0, BLOCK_R)
    ptrs = x_ptr + pid_b * stride_b + offs_r[:, None] * stride_r + offs_c[None, :]
    in_c = (offs_c < C)[None, :]
    total = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for r in range(0, r_per_program, BLOCK_R):
        total += tl.load(ptrs, mask=((r + offs_r) < R)[:, None] & in_c, other=0.0)
        ptrs += BLOCK_R * stride_r
    mean = tl.sum(total, axis=0) * inv_r
    tl.store(out_ptr + pid_b * C + offs_c, mean, mask=offs_c < C)


def mean_dim1(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    B, R, C = x.shape
    out = torch.empty((B, C), device=x.device, dtype=torch.float32)
    BLOCK_R, BLOCK_C = 64, 128
    grid = (triton.cdiv(C, BLOCK_C), B)
    mean_dim1_kernel[grid](x, out, R, C, x.stride(0), x.stride(1), R, 1.0 / R,
                           BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C, num_warps=4)
    return out
