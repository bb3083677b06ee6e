import torch
import triton
import triton.language as tl


@triton.jit
def unfold_tile_kernel(x_ptr, out_ptr, n_chan, n_win, win, step,
                       sx_b, sx_c, sx_l,
                       so_b, so_c, so_w, so_k,
                       BLOCK_W: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_bc = tl.program_id(0)
    pid_w = tl.program_id(1)
    b = (pid_bc // n_chan).to(tl.int64)
    c = pid_bc % n_chan
    w = pid_w * BLOCK_W + tl.arange(0, BLOCK_W)
    k = tl.arange(0, BLOCK_K)
    m = (w < n_win)[:, None] & (k < win)[None, :]
    src = x_ptr + b * sx_b + c * sx_c + (w[:, None] * step + k[None, :]) * sx_l
    dst = out_ptr + b * so_b + c * so_c + w[:, None] * so_w + k[None, :] * so_k
    tl.store(dst, tl.load(src, mask=m), mask=m)


def unfold_windows(x, size, step):
    B, C, L = x.shape
    n_win = (L - size) // step + 1
    out = torch.empty(B, C, n_win, size, device=x.device, dtype=x.dtype)
    BLOCK_W = 32
    grid = (B * C, triton.cdiv(n_win, BLOCK_W))
    unfold_tile_kernel[grid](x, out, C, n_win, size, step,
                             x.stride(0), x.stride(1), x.stride(2),
                             out.stride(0), out.stride(1), out.stride(2), out.stride(3),
                             BLOCK_W=BLOCK_W, BLOCK_K=triton.next_power_of_2(size), num_warps=4)
    return out
