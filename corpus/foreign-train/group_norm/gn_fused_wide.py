import torch
import triton
import triton.language as tl

NUM_GROUPS = 32
EPS = 1e-5


@triton.jit
def groupnorm_fwd_fused_wide(X, Y, Wt, Bs, group_size, HW, CPG, G, eps,
                        BLOCK: tl.constexpr):
    # one program normalises one (sample, group) slab: stats loop, then apply loop
    row = tl.program_id(0)
    g = row % G
    x_base = X + row.to(tl.int64) * group_size
    y_base = Y + row.to(tl.int64) * group_size
    s1 = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, group_size, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        v = tl.load(x_base + cols, mask=cols < group_size, other=0.0)
        s1 += v
        s2 += v * v
    mean = tl.sum(s1, axis=0) / group_size
    var = tl.sum(s2, axis=0) / group_size - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for off in range(0, group_size, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m = cols < group_size
        v = tl.load(x_base + cols, mask=m, other=0.0)
        ch = g * CPG + cols // HW
        w = tl.load(Wt + ch, mask=m, other=1.0)
        b = tl.load(Bs + ch, mask=m, other=0.0)
        tl.store(y_base + cols, (v - mean) * rstd * w + b, mask=m)


def generate_input(n, c, h, w, seed):
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    return (torch.randn(n, c, h, w, device="cuda", generator=gen),
            torch.randn(c, device="cuda", generator=gen),
            torch.randn(c, device="cuda", generator=gen))


def custom_kernel(data):
    x, weight, bias = data
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    group_size = (c // NUM_GROUPS) * h * w
    groupnorm_fwd_fused_wide[(n * NUM_GROUPS,)](x, y, weight, bias, group_size, h * w,
                                           c // NUM_GROUPS, NUM_GROUPS, EPS,
                                           BLOCK=8192, num_warps=16)
    return y
