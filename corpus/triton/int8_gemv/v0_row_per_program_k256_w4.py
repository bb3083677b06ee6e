"""y = (W_int8 @ x) * scale[row], naive: one program per row (BLOCK_M = 1) walking the row in 256-byte chunks, int8 converted to float, 1-D accumulator; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = int8_gemv(W, x, scale); W: i8[8192, 8192] randint(-127, 128); x: f32[8192] randn; scale: f32[8192] rand; rtol = 1e-3; atol = 0.1
@triton.jit
def int8_gemv_kernel(w_ptr, x_ptr, scale_ptr, y_ptr, M, K, stride_w, k_per_program, BLOCK_M: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    k_start = tl.program_id(1) * k_per_program
    acc = tl.zeros([BLOCK_K], dtype=tl.float32)
    for k0 in range(k_start, k_start + k_per_program, BLOCK_K):
        cols = k0 + tl.arange(0, BLOCK_K)
        mask = cols < K
        w = tl.load(w_ptr + row * stride_w + cols, mask=mask, other=0)
        xv = tl.load(x_ptr + cols, mask=mask, other=0.0)
        acc += w.to(tl.float32) * xv
    tl.store(y_ptr + row, tl.sum(acc, axis=0) * tl.load(scale_ptr + row))


def int8_gemv(W: torch.Tensor, x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    M, K = W.shape
    y = torch.empty((M,), device=W.device, dtype=torch.float32)
    int8_gemv_kernel[(M, 1)](W, x, scale, y, M, K, W.stride(0), K, BLOCK_M=1, BLOCK_K=256, num_warps=4)
    return y
