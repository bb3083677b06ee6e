# GroupNorm forward: statistics with torch, normalise + affine in one Triton kernel.
import torch
import triton
import triton.language as tl

NUM_GROUPS = 32
EPS = 1e-5


@triton.jit
def _gn_apply_kernel(X, Y, MEAN, RSTD, Wt, B, n_elem, group_numel, HW, C,
                     BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elem
    x = tl.load(X + offs, mask=mask, other=0.0)
    grp = offs // group_numel
    ch = (offs // HW) % C
    mean = tl.load(MEAN + grp, mask=mask, other=0.0)
    rstd = tl.load(RSTD + grp, mask=mask, other=0.0)
    w = tl.load(Wt + ch, mask=mask, other=0.0)
    b = tl.load(B + ch, mask=mask, other=0.0)
    y = (x - mean) * rstd * w + b
    tl.store(Y + offs, y, mask=mask)


def generate_input(n: int, c: int, h: int, w: int, seed: int):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(n, c, h, w, device="cuda", generator=gen)
    weight = torch.ones(c, device="cuda")
    bias = torch.zeros(c, device="cuda")
    return x, weight, bias


def custom_kernel(data):
    x, weight, bias = data
    x = x.contiguous()
    n, c, h, w = x.shape
    xg = x.view(n * NUM_GROUPS, -1)
    var, mean = torch.var_mean(xg, dim=1, correction=0)
    rstd = torch.rsqrt(var + EPS)
    y = torch.empty_like(x)
    n_elem = x.numel()
    BLOCK = 1024
    grid = (triton.cdiv(n_elem, BLOCK),)
    _gn_apply_kernel[grid](x, y, mean, rstd, weight, bias, n_elem, xg.shape[1], h * w, c,
                           BLOCK=BLOCK, num_warps=4)
    return y
