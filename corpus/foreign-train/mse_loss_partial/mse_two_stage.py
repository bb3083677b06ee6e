import torch
import triton
import triton.language as tl


@triton.jit
def _mse_stage1(P, T, PART, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    idx = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    d = tl.load(P + idx, mask=m, other=0.0) - tl.load(T + idx, mask=m, other=0.0)
    tl.store(PART + pid, tl.sum(d * d, axis=0))


@triton.jit
def _mse_stage2(PART, OUT, n_parts, inv_n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_parts, BLOCK):
        i = start + tl.arange(0, BLOCK)
        acc += tl.load(PART + i, mask=i < n_parts, other=0.0)
    tl.store(OUT, tl.sum(acc, axis=0) * inv_n)


def mse_loss(pred, target):
    n = pred.numel()
    BLOCK = 8192
    n_parts = triton.cdiv(n, BLOCK)
    part = torch.empty(n_parts, device=pred.device, dtype=torch.float32)
    out = torch.empty((), device=pred.device, dtype=torch.float32)
    _mse_stage1[(n_parts,)](pred, target, part, n, BLOCK=BLOCK, num_warps=16)
    _mse_stage2[(1,)](part, out, n_parts, 1.0 / n, BLOCK=1024, num_warps=4)
    return out
