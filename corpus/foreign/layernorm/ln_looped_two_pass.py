import torch
import triton
import triton.language as tl


def generate_input(rows: int, cols: int, seed: int):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float16, generator=gen)
    return x, torch.ones(cols, device="cuda", dtype=torch.float16), torch.zeros(cols, device="cuda", dtype=torch.float16)


@triton.jit
def ln_chunked(X, Y, W, B, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * N
    Y += row * N
    s1 = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        s1 += x
        s2 += x * x
    mean = tl.sum(s1, axis=0) / N
    var = tl.sum(s2, axis=0) / N - mean * mean
    rstd = tl.rsqrt(var + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(X + cols, mask=m, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=m).to(tl.float32)
        b = tl.load(B + cols, mask=m).to(tl.float32)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(tl.float16), mask=m)


def custom_kernel(data):
    x, w, b = data
    y = torch.empty_like(x)
    ln_chunked[(x.shape[0],)](x, y, w, b, x.shape[1], 1e-5, BLOCK=512, num_warps=4)
    return y
