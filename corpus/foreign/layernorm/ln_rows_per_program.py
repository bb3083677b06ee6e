import torch
import triton
import triton.language as tl


def generate_input(rows: int, cols: int, seed: int):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float16, generator=gen)
    return x, torch.ones(cols, device="cuda", dtype=torch.float16), torch.zeros(cols, device="cuda", dtype=torch.float16)


@triton.jit
def layer_norm_multirow(X, Y, W, B, M, N, eps, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    rmask = rows < M
    cmask = cols < N
    mask = rmask[:, None] & cmask[None, :]
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / N
    xc = tl.where(mask, x - mean[:, None], 0.0)
    rstd = tl.rsqrt(tl.sum(xc * xc, axis=1) / N + eps)
    w = tl.load(W + cols, mask=cmask).to(tl.float32)
    b = tl.load(B + cols, mask=cmask).to(tl.float32)
    y = xc * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(Y + offs, y.to(tl.float16), mask=mask)


def custom_kernel(data):
    x, w, b = data
    M, N = x.shape
    y = torch.empty_like(x)
    ROWS = 4
    layer_norm_multirow[(triton.cdiv(M, ROWS),)](x, y, w, b, M, N, 1e-5, ROWS=ROWS,
                                                 BLOCK_N=triton.next_power_of_2(N), num_warps=16)
    return y
