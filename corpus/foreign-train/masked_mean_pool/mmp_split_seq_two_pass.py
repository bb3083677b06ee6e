import torch
import triton
import triton.language as tl


@triton.jit
def partial_masked_sum(X, M, PART, PCNT, L, D, chunk, sxb, sxl, smb,
                       BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    pd = tl.program_id(1)
    s = tl.program_id(2)
    n_split = tl.num_programs(2)
    d = pd * BLOCK_D + tl.arange(0, BLOCK_D)
    dm = d < D
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    cnt = tl.zeros([BLOCK_L], dtype=tl.float32)
    lo = s * chunk
    for l0 in range(lo, lo + chunk, BLOCK_L):
        l = l0 + tl.arange(0, BLOCK_L)
        lm = (l < L) & (l < lo + chunk)
        w = tl.load(M + b * smb + l, mask=lm, other=0.0)
        v = tl.load(X + b.to(tl.int64) * sxb + l[:, None] * sxl + d[None, :],
                    mask=lm[:, None] & dm[None, :], other=0.0)
        acc += tl.sum(v * w[:, None], axis=0)
        cnt += w
    row = b * n_split + s
    tl.store(PART + row.to(tl.int64) * D + d, acc, mask=dm)
    if pd == 0:
        tl.store(PCNT + row, tl.sum(cnt, axis=0))


@triton.jit
def finish_masked_mean(PART, PCNT, OUT, D, N_SPLIT: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    dm = d < D
    s = tl.arange(0, N_SPLIT)
    part = tl.load(PART + (b * N_SPLIT + s)[:, None] * D + d[None, :], mask=dm[None, :], other=0.0)
    total = tl.sum(tl.load(PCNT + b * N_SPLIT + s), axis=0)
    tl.store(OUT + b * D + d, tl.sum(part, axis=0) / total, mask=dm)


def generate_input(batch, seqlen, dim, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(batch, seqlen, dim, device="cuda", generator=gen)
    mask = (torch.rand(batch, seqlen, device="cuda", generator=gen) < 0.6).float()
    mask[:, 0] = 1.0
    return x, mask


def custom_kernel(data):
    x, mask = data
    B, L, D = x.shape
    N_SPLIT, BLOCK_L, BLOCK_D = 8, 16, 256
    chunk = triton.cdiv(triton.cdiv(L, N_SPLIT), BLOCK_L) * BLOCK_L
    part = torch.empty((B * N_SPLIT, D), device=x.device, dtype=torch.float32)
    pcnt = torch.empty((B * N_SPLIT,), device=x.device, dtype=torch.float32)
    grid1 = (B, triton.cdiv(D, BLOCK_D), N_SPLIT)
    partial_masked_sum[grid1](x, mask, part, pcnt, L, D, chunk, x.stride(0), x.stride(1), mask.stride(0),
                              BLOCK_L=BLOCK_L, BLOCK_D=BLOCK_D, num_warps=4)
    out = torch.empty((B, D), device=x.device, dtype=torch.float32)
    finish_masked_mean[(B, triton.cdiv(D, BLOCK_D))](part, pcnt, out, D, N_SPLIT=N_SPLIT, BLOCK_D=BLOCK_D)
    return out
