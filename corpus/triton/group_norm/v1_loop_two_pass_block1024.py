"""GroupNorm forward on NCHW x [N, C, H*W] with G groups: y = (x - mean_g) / sqrt(var_g + eps) * w[c] + b[c],
one program per (n, group) looping in chunks of 1024: a mean loop, a centred variance loop and the
output loop (x read three times); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = group_norm(x, weight, bias); x: f32[32, 256, 1024] randn; weight: f32[256] randn; bias: f32[256] randn; rtol = 1e-3; atol = 1e-3
@triton.jit
def group_norm_kernel(x_ptr, weight_ptr, bias_ptr, y_ptr, G, CPG, HW, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    g = pid % G
    group_size = CPG * HW
    base = pid * group_size
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + offs, mask=offs < group_size, other=0.0)
    mean = tl.sum(acc, axis=0) / group_size
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < group_size
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        d = tl.where(mask, x - mean, 0.0)
        acc2 += d * d
    var = tl.sum(acc2, axis=0) / group_size
    rstd = 1.0 / tl.sqrt(var + eps)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < group_size
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        c = g * CPG + offs // HW
        w = tl.load(weight_ptr + c, mask=mask, other=0.0)
        b = tl.load(bias_ptr + c, mask=mask, other=0.0)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * w + b, mask=mask)


def group_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, num_groups: int = 32,
               eps: float = 1e-5) -> torch.Tensor:
    N, C = x.shape[0], x.shape[1]
    HW = x[0, 0].numel()
    CPG = C // num_groups
    y = torch.empty_like(x)
    group_norm_kernel[(N * num_groups,)](x, weight, bias, y, num_groups, CPG, HW, eps, BLOCK=1024, num_warps=4)
    return y
