"""Mean squared error with a persistent grid: at most 1024 programs stride over the
array in blocks of 2048, accumulating squared differences in a vector, then one
tl.sum and one tl.atomic_add per program; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = mse_loss(a, b); a: f32[33554432]; b: f32[33554432]; rtol = 1e-3; atol = 1e-4
@triton.jit
def mse_kernel(a_ptr, b_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(a_ptr + offs, mask=mask, other=0.0)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0)
        d = a - b
        acc += d * d
    tl.atomic_add(out_ptr, tl.sum(acc, axis=0) * inv_n)


def mse_loss(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    n = a.numel()
    out = torch.zeros((1,), device=a.device, dtype=torch.float32)
    BLOCK = 2048
    grid = min(1024, triton.cdiv(n, BLOCK))
    mse_kernel[(grid,)](a, b, out, n, 1.0 / n, BLOCK=BLOCK, num_warps=8)
    return out
