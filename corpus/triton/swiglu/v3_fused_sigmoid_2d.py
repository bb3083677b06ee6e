"""SwiGLU activation out = silu(gate) * up, fused, on 2-D tiles of 4 rows x 512
columns with tl.sigmoid; rows are addressed through their strides."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = swiglu(gate, up); gate: f32[8192, 2048]; up: f32[8192, 2048]; rtol = 1e-4; atol = 1e-5
@triton.jit
def swiglu_kernel(gate_ptr, up_ptr, out_ptr, n_rows, n_cols, stride_g, stride_u, stride_o,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    g = tl.load(gate_ptr + rows[:, None] * stride_g + cols[None, :], mask=mask)
    u = tl.load(up_ptr + rows[:, None] * stride_u + cols[None, :], mask=mask)
    tl.store(out_ptr + rows[:, None] * stride_o + cols[None, :], g * tl.sigmoid(g) * u, mask=mask)


def swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = gate.shape
    out = torch.empty_like(gate)
    BLOCK_M, BLOCK_N = 4, 512
    grid = (triton.cdiv(n_rows, BLOCK_M), triton.cdiv(n_cols, BLOCK_N))
    swiglu_kernel[grid](gate, up, out, n_rows, n_cols, gate.stride(0), up.stride(0), out.stride(0),
                        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
