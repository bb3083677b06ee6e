"""y = (W_int8 @ x) * scale[row]: each program owns 32 rows and loops over K in 32 x 512 int8 tiles (converted to float, accumulated in a 2-D register tile, tl.sum along axis 1 at the end); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = int8_gemv(W, x, scale); W: i8[8192, 8192] randint(-127, 128); x: f32[8192] randn; scale: f32[8192] rand; rtol = 1e-3; atol = 0.1
@triton.jit
def int8_gemv_kernel(w_ptr, x_ptr, scale_ptr, y_ptr, M, K, stride_w, k_per_program, BLOCK_M: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    k_start = tl.program_id(1) * k_per_program
    acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for k0 in range(k_start, k_start + k_per_program, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        col_mask = cols < K
        w = tl.load(w_ptr + rows[:, None] * stride_w + cols[None, :], mask=row_mask[:, None] & col_mask[None, :],
                    other=0)
        xv = tl.load(x_ptr + cols, mask=col_mask, other=0.0)
        acc += w.to(tl.float32) * xv[None, :]
    s = tl.load(scale_ptr + rows, mask=row_mask, other=0.0)
    tl.store(y_ptr + rows, tl.sum(acc, axis=1) * s, mask=row_mask)


def int8_gemv(W: torch.Tensor, x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    M, K = W.shape
    y = torch.empty((M,), device=W.device, dtype=torch.float32)
    BLOCK_M, BLOCK_K = 32, 512
    int8_gemv_kernel[(triton.cdiv(M, BLOCK_M), 1)](W, x, scale, y, M, K, W.stride(0), K, BLOCK_M=BLOCK_M,
                                                   BLOCK_K=BLOCK_K, num_warps=8)
    return y
