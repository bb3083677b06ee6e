"""Mean squared error in two deterministic stages: one program per 4096 elements
writes its sum of squared differences to a partials buffer (no atomics), then a
single-program kernel sums the 8K partials and scales by 1/n; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = mse_loss(a, b); a: f32[33554432]; b: f32[33554432]; rtol = 1e-3; atol = 1e-4
@triton.jit
def mse_kernel(a_ptr, b_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    d = a - b
    tl.store(out_ptr + pid, tl.sum(d * d, axis=0))


@triton.jit
def sum_partials_kernel(p_ptr, out_ptr, m, scale, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, m, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(p_ptr + offs, mask=offs < m, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * scale)


def mse_loss(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    n = a.numel()
    BLOCK = 4096
    n_blocks = triton.cdiv(n, BLOCK)
    partials = torch.empty((n_blocks,), device=a.device, dtype=torch.float32)
    out = torch.empty((1,), device=a.device, dtype=torch.float32)
    mse_kernel[(n_blocks,)](a, b, partials, n, 1.0 / n, BLOCK=BLOCK, num_warps=8)
    sum_partials_kernel[(1,)](partials, out, n_blocks, 1.0 / n, BLOCK=1024, num_warps=4)
    return out
