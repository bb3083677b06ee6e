"""InstanceNorm forward on x [N, C, H*W], one program per (n, c) looping over the plane in
chunks of only 128 (one value per thread, 32 iterations per loop): mean loop, variance loop,
output loop (x read three times); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = instance_norm(x, gamma, beta); x: f32[32, 64, 4096] randn; gamma: f32[64] randn; beta: f32[64] randn; rtol = 1e-3; atol = 1e-3
@triton.jit
def instance_norm_kernel(x_ptr, gamma_ptr, beta_ptr, y_ptr, C, HW, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    c = row % C
    base = row * HW
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + offs, mask=offs < HW, other=0.0)
    mean = tl.sum(acc, axis=0) / HW
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < HW
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        d = tl.where(mask, x - mean, 0.0)
        acc2 += d * d
    var = tl.sum(acc2, axis=0) / HW
    rstd = 1.0 / tl.sqrt(var + eps)
    g = tl.load(gamma_ptr + c)
    b = tl.load(beta_ptr + c)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < HW
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * g + b, mask=mask)


def instance_norm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    x = x.contiguous()
    N, C = x.shape[0], x.shape[1]
    HW = x[0, 0].numel()
    y = torch.empty_like(x)
    instance_norm_kernel[(N * C,)](x, gamma, beta, y, C, HW, eps, BLOCK=128, num_warps=4)
    return y
