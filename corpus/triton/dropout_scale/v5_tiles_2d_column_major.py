"""Dropout over the flat array viewed as rows of 8192: each program takes a 256 x 2
tile (8 bytes per row, rows 32 KB apart) and programs walk down the columns first,
so every access is strided; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = dropout(x, seed, p); x: f32[1 << 26] randn; seed = 1234; p = 0.1; rtol = 1e-5; atol = 1e-6
@triton.jit
def dropout_kernel(x_ptr, y_ptr, n, n_rows, seed, p, COLS: tl.constexpr, BLOCK_R: tl.constexpr,
                   BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    row_blocks = tl.cdiv(n_rows, BLOCK_R)
    pid_r = pid % row_blocks
    pid_c = pid // row_blocks
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    offs = rows[:, None] * COLS + cols[None, :]
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    keep = tl.rand(seed, offs) > p
    y = x * keep.to(tl.float32) / (1.0 - p)
    tl.store(y_ptr + offs, y, mask=mask)


def dropout(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    n = x.numel()
    y = torch.empty_like(x)
    COLS, BLOCK_R, BLOCK_C = 8192, 256, 2
    n_rows = triton.cdiv(n, COLS)
    grid = (triton.cdiv(n_rows, BLOCK_R) * (COLS // BLOCK_C),)
    dropout_kernel[grid](x, y, n, n_rows, int(seed), float(p), COLS=COLS, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C,
                         num_warps=4)
    return y
