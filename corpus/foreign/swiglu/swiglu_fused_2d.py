import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd(X, Y, inter, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = cols < inter
    g = tl.load(X + row * 2 * inter + cols, mask=m, other=0.0).to(tl.float32)
    u = tl.load(X + row * 2 * inter + inter + cols, mask=m, other=0.0).to(tl.float32)
    y = g * tl.sigmoid(g) * u
    tl.store(Y + row * inter + cols, y.to(tl.float16), mask=m)


def swiglu(x):
    tokens, two_inter = x.shape
    inter = two_inter // 2
    y = torch.empty(tokens, inter, device=x.device, dtype=x.dtype)
    swiglu_fwd[(tokens, triton.cdiv(inter, 1024))](x, y, inter, BLOCK=1024, num_warps=4)
    return y
