"""GroupNorm forward on NCHW x [N, C, H*W] with G groups: y = (x - mean_g) / sqrt(var_g + eps) * w[c] + b[c],
one program per (n, group) looping in chunks of 1024 with per-lane Welford updates (running count,
mean and M2, one division per element), lanes merged with the parallel-variance formula, then the
output loop; 4 warps."""
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
    cnt = tl.zeros([BLOCK], dtype=tl.float32)
    m = tl.zeros([BLOCK], dtype=tl.float32)
    m2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_size, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < group_size
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        new_cnt = cnt + mask.to(tl.float32)
        delta = x - m
        m = m + tl.where(mask, delta / tl.maximum(new_cnt, 1.0), 0.0)
        m2 = m2 + tl.where(mask, delta * (x - m), 0.0)
        cnt = new_cnt
    total = tl.sum(cnt, axis=0)
    mean = tl.sum(cnt * m, axis=0) / total
    dm = m - mean
    var = tl.sum(m2 + cnt * dm * dm, axis=0) / total
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
