"""InstanceNorm forward on x [N, C, H*W], one program per (n, c), whole plane (BLOCK = 4096)
in registers, two-pass statistics; gamma and beta loaded first, gamma folded into one scale
(y = centred * scale + beta), names changed; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = instance_norm(x, gamma, beta); x: f32[32, 64, 4096] randn; gamma: f32[64] randn; beta: f32[64] randn; rtol = 1e-3; atol = 1e-3
@triton.jit
def instance_norm_kernel(x_ptr, gamma_ptr, beta_ptr, y_ptr, C, HW, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    in_row = idx < HW
    ch = pid % C
    gamma = tl.load(gamma_ptr + ch)
    beta = tl.load(beta_ptr + ch)
    row_start = pid * HW
    v = tl.load(x_ptr + row_start + idx, mask=in_row, other=0.0)
    mu = tl.sum(v, axis=0) / HW
    centred = tl.where(in_row, v - mu, 0.0)
    sigma2 = tl.sum(centred * centred, axis=0) / HW
    scale = gamma / tl.sqrt(sigma2 + eps)
    tl.store(y_ptr + row_start + idx, centred * scale + beta, mask=in_row)


def instance_norm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    x = x.contiguous()
    N, C = x.shape[0], x.shape[1]
    HW = x[0, 0].numel()
    y = torch.empty_like(x)
    instance_norm_kernel[(N * C,)](x, gamma, beta, y, C, HW, eps, BLOCK=triton.next_power_of_2(HW), num_warps=8)
    return y
