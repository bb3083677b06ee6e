"""InstanceNorm forward on x [N, C, H*W]: y = (x - mean) / sqrt(var + eps) * gamma[c] + beta[c]
over each (n, c) plane; one program per (n, c) loading the whole plane (BLOCK = 4096) once,
two-pass mean and variance in registers, one store; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = instance_norm(x, gamma, beta); x: f32[32, 64, 4096] randn; gamma: f32[64] randn; beta: f32[64] randn; rtol = 1e-3; atol = 1e-3
@triton.jit
def instance_norm_kernel(x_ptr, gamma_ptr, beta_ptr, y_ptr, C, HW, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    c = row % C
    base = row * HW
    offs = tl.arange(0, BLOCK)
    mask = offs < HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / HW
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / HW
    rstd = 1.0 / tl.sqrt(var + eps)
    g = tl.load(gamma_ptr + c)
    b = tl.load(beta_ptr + c)
    tl.store(y_ptr + base + offs, d * rstd * g + b, mask=mask)


def instance_norm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    x = x.contiguous()
    N, C = x.shape[0], x.shape[1]
    HW = x[0, 0].numel()
    y = torch.empty_like(x)
    instance_norm_kernel[(N * C,)](x, gamma, beta, y, C, HW, eps, BLOCK=triton.next_power_of_2(HW), num_warps=4)
    return y
