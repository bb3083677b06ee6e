import torch
import triton
import triton.language as tl


@triton.jit
def masked_sum_atomic(X, M, ACC, L, D, chunk, sxb, sxl, smb, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    start = tl.program_id(2) * chunk
    dm = d < D
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for l0 in range(start, start + chunk, BLOCK_L):
        l = l0 + tl.arange(0, BLOCK_L)
        lm = l < L
        w = tl.load(M + b * smb + l, mask=lm, other=0.0)
        v = tl.load(X + b.to(tl.int64) * sxb + l[:, None] * sxl + d[None, :],
                    mask=lm[:, None] & dm[None, :], other=0.0)
        acc += tl.sum(v * w[:, None], axis=0)
    tl.atomic_add(ACC + b * D + d, acc, mask=dm)


def generate_input(batch, seqlen, dim, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(batch, seqlen, dim, device="cuda", generator=gen)
    mask = (torch.rand(batch, seqlen, device="cuda", generator=gen) < 0.6).float()
    mask[:, 0] = 1.0
    return x, mask


def custom_kernel(data):
    x, mask = data
    B, L, D = x.shape
    SPLIT, BLOCK_L, BLOCK_D = 16, 32, 128
    chunk = triton.cdiv(triton.cdiv(L, SPLIT), BLOCK_L) * BLOCK_L
    sums = torch.zeros((B, D), device=x.device, dtype=torch.float32)
    grid = (B, triton.cdiv(D, BLOCK_D), triton.cdiv(L, chunk))
    masked_sum_atomic[grid](x, mask, sums, L, D, chunk, x.stride(0), x.stride(1), mask.stride(0),
                            BLOCK_L=BLOCK_L, BLOCK_D=BLOCK_D, num_warps=4)
    return sums / mask.sum(1, keepdim=True)
