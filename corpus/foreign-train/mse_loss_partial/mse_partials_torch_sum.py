"""MSE loss: a Triton kernel writes one partial sum per block, torch sums the partials."""
import torch
import triton
import triton.language as tl


@triton.jit
def sq_err_partial_kernel(a_ptr, b_ptr, partial_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    d = a - b
    tl.store(partial_ptr + pid, tl.sum(d * d, axis=0))


def mse_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    n = pred.numel()
    BLOCK = 4096
    nblocks = triton.cdiv(n, BLOCK)
    partials = torch.empty(nblocks, device=pred.device, dtype=torch.float32)
    sq_err_partial_kernel[(nblocks,)](pred, target, partials, n, BLOCK=BLOCK, num_warps=8)
    return torch.sum(partials) / n
