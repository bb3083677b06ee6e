import torch
import triton
import triton.language as tl


def generate_input(rows: int, cols: int, seed: int):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float16, generator=gen)
    w = torch.ones(cols, device="cuda", dtype=torch.float16)
    b = torch.zeros(cols, device="cuda", dtype=torch.float16)
    return x, w, b


@triton.jit
def _normalize_affine(X, Y, W, B, Mean, Rstd, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(X + row * n_cols + cols, mask=m, other=0.0).to(tl.float32)
    mu = tl.load(Mean + row)
    rs = tl.load(Rstd + row)
    w = tl.load(W + cols, mask=m).to(tl.float32)
    b = tl.load(B + cols, mask=m).to(tl.float32)
    y = (x - mu) * rs * w + b
    tl.store(Y + row * n_cols + cols, y.to(Y.dtype.element_ty), mask=m)


def custom_kernel(data):
    x, weight, bias = data
    rows, cols = x.shape
    xf = x.float()
    mean = xf.mean(dim=-1)
    rstd = torch.rsqrt(xf.var(dim=-1, unbiased=False) + 1e-5)
    y = torch.empty_like(x)
    grid = (rows, triton.cdiv(cols, 1024))
    _normalize_affine[grid](x, y, weight, bias, mean, rstd, cols, BLOCK=1024)
    return y
