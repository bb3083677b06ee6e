import torch
import triton
import triton.language as tl


@triton.jit
def focal_partial_kernel(X, T, PART, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0.0)
    t = tl.load(T + offs, mask=m, other=0.0)
    prob = 1.0 / (1.0 + tl.exp(-x))
    bce = tl.maximum(x, 0.0) - x * t + tl.log(1.0 + tl.exp(-tl.abs(x)))
    one_minus_pt = 1.0 - (prob * t + (1.0 - prob) * (1.0 - t))
    w = alpha * t + (1.0 - alpha) * (1.0 - t)
    val = tl.where(m, w * one_minus_pt * one_minus_pt * bce, 0.0)
    tl.store(PART + pid, tl.sum(val, axis=0))


def custom_kernel(data):
    logits, targets = data
    n = logits.numel()
    BLOCK = 4096
    nblocks = triton.cdiv(n, BLOCK)
    partials = torch.empty(nblocks, device=logits.device, dtype=torch.float32)
    focal_partial_kernel[(nblocks,)](logits, targets, partials, n, 0.25, BLOCK=BLOCK, num_warps=8)
    return partials.sum() / n
