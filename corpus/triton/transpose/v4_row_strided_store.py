"""Out-of-place transpose, naive: each program copies a 1024-wide chunk of one row
of x into one column of out, so the stores are strided by M * 4 bytes."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = transpose(x); x: f32[4096, 8192]; rtol = 0; atol = 0
@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, stride_x, stride_o, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    v = tl.load(x_ptr + row * stride_x + cols, mask=mask)
    tl.store(out_ptr + cols * stride_o + row, v, mask=mask)


def transpose(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    BLOCK_N = 1024
    transpose_kernel[(M, triton.cdiv(N, BLOCK_N))](x, out, M, N, x.stride(0), out.stride(0), BLOCK_N=BLOCK_N,
                                                   num_warps=4)
    return out
