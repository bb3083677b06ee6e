"""GroupNorm forward on NCHW x [N, C, H*W] with G groups: y = (x - mean_g) / sqrt(var_g + eps) * w[c] + b[c],
one program per (n, group) loading the whole group at once; 16 warps."""
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
    offs = tl.arange(0, BLOCK)
    mask = offs < group_size
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / group_size
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / group_size
    rstd = 1.0 / tl.sqrt(var + eps)
    c = g * CPG + offs // HW
    w = tl.load(weight_ptr + c, mask=mask, other=0.0)
    b = tl.load(bias_ptr + c, mask=mask, other=0.0)
    tl.store(y_ptr + base + offs, d * rstd * w + b, mask=mask)


def group_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, num_groups: int = 32,
               eps: float = 1e-5) -> torch.Tensor:
    N, C = x.shape[0], x.shape[1]
    HW = x[0, 0].numel()
    CPG = C // num_groups
    y = torch.empty_like(x)
    group_norm_kernel[(N * num_groups,)](x, weight, bias, y, num_groups, CPG, HW, eps, BLOCK=triton.next_power_of_2(CPG * HW), num_warps=16)
    return y
