"""Out-of-place transpose of a 2-D tensor: each program loads a 16 x 16 tile
(coalesced along the rows of x) and stores it transposed (coalesced along the
rows of out); Triton's layout conversion goes through shared memory. One warp, 256 elements per program."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = transpose(x); x: f32[4096, 8192]; rtol = 0; atol = 0
@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, stride_x, stride_o, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tile = tl.load(x_ptr + rm[:, None] * stride_x + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[:, None] * stride_o + rm[None, :], tl.trans(tile), mask=tl.trans(mask))


def transpose(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_N = 16, 16
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    transpose_kernel[grid](x, out, M, N, x.stride(0), out.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=1)
    return out
