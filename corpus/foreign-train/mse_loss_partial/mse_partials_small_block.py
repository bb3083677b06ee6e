import torch
import triton
import triton.language as tl


@triton.jit
def mse_block_partial(a_ptr, b_ptr, partial_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    d = tl.load(a_ptr + offs, mask=mask, other=0.0) - tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.store(partial_ptr + pid, tl.sum(d * d, axis=0))


def mse_loss(pred, target):
    n = pred.numel()
    BLOCK = 128
    nblocks = triton.cdiv(n, BLOCK)
    partials = torch.empty(nblocks, device=pred.device, dtype=torch.float32)
    mse_block_partial[(nblocks,)](pred, target, partials, n, BLOCK=BLOCK, num_warps=1)
    return partials.sum() / n
