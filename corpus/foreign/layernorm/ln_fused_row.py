import torch
import triton
import triton.language as tl


def generate_input(rows: int, cols: int, seed: int):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float16, generator=gen)
    return x, torch.ones(cols, device="cuda", dtype=torch.float16), torch.zeros(cols, device="cuda", dtype=torch.float16)


@triton.jit
def layernorm_fwd_fused(X, Y, W, B, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_N)
    mask = offs < N
    x = tl.load(X + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(W + offs, mask=mask).to(tl.float32)
    b = tl.load(B + offs, mask=mask).to(tl.float32)
    tl.store(Y + row * stride + offs, (d * rstd * w + b).to(Y.dtype.element_ty), mask=mask)


def custom_kernel(data):
    x, w, b = data
    M, N = x.shape
    y = torch.empty_like(x)
    BLOCK_N = triton.next_power_of_2(N)
    layernorm_fwd_fused[(M,)](x, y, w, b, x.stride(0), N, 1e-5, BLOCK_N=BLOCK_N, num_warps=8)
    return y
