"""GroupNorm forward on NCHW x [N, C, H*W] with G groups: y = (x - mean_g) / sqrt(var_g + eps) * w[c] + b[c],
one program per (n, group) looping in chunks of 1024: v2 (sum and sum of squares, then the output
loop) with renamed variables, rsqrt and the affine folded into one scale and shift per element; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = group_norm(x, weight, bias); x: f32[32, 256, 1024] randn; weight: f32[256] randn; bias: f32[256] randn; rtol = 1e-3; atol = 1e-3
@triton.jit
def group_norm_kernel(x_ptr, weight_ptr, bias_ptr, y_ptr, G, CPG, HW, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    n_elem = CPG * HW
    start_ptr = row * n_elem
    grp = row % G
    acc_sum = tl.zeros([BLOCK], dtype=tl.float32)
    acc_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_elem, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + start_ptr + idx, mask=idx < n_elem, other=0.0)
        acc_sq += v * v
        acc_sum += v
    mu = tl.sum(acc_sum, axis=0) / n_elem
    inv_std = tl.rsqrt(tl.maximum(tl.sum(acc_sq, axis=0) / n_elem - mu * mu, 0.0) + eps)
    for off in range(0, n_elem, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < n_elem
        ch = grp * CPG + idx // HW
        scale = tl.load(weight_ptr + ch, mask=m, other=0.0) * inv_std
        shift = tl.load(bias_ptr + ch, mask=m, other=0.0) - mu * scale
        v = tl.load(x_ptr + start_ptr + idx, mask=m, other=0.0)
        tl.store(y_ptr + start_ptr + idx, v * scale + shift, mask=m)


def group_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, num_groups: int = 32,
               eps: float = 1e-5) -> torch.Tensor:
    N, C = x.shape[0], x.shape[1]
    HW = x[0, 0].numel()
    CPG = C // num_groups
    y = torch.empty_like(x)
    group_norm_kernel[(N * num_groups,)](x, weight, bias, y, num_groups, CPG, HW, eps, BLOCK=1024, num_warps=4)
    return y
