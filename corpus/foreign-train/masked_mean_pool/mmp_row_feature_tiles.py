import torch
import triton
import triton.language as tl


@triton.jit
def _masked_mean_tile(X, M, OUT, L, D, sxb, sxl, smb, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    d_ok = offs_d < D
    acc = tl.zeros([BLOCK_L, BLOCK_D], dtype=tl.float32)
    n_kept = tl.zeros([BLOCK_L], dtype=tl.float32)
    base = X + pid_b.to(tl.int64) * sxb
    for start in range(0, L, BLOCK_L):
        offs_l = start + tl.arange(0, BLOCK_L)
        l_ok = offs_l < L
        w = tl.load(M + pid_b * smb + offs_l, mask=l_ok, other=0.0)
        v = tl.load(base + offs_l[:, None] * sxl + offs_d[None, :], mask=l_ok[:, None] & d_ok[None, :],
                    other=0.0)
        acc += v * w[:, None]
        n_kept += w
    mean = tl.sum(acc, axis=0) / tl.sum(n_kept, axis=0)
    tl.store(OUT + pid_b * D + offs_d, mean, mask=d_ok)


def generate_input(batch, seqlen, dim, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(batch, seqlen, dim, device="cuda", generator=gen)
    mask = (torch.rand(batch, seqlen, device="cuda", generator=gen) < 0.6).float()
    mask[:, 0] = 1.0
    return x, mask


def custom_kernel(data):
    x, mask = data
    B, L, D = x.shape
    out = torch.empty((B, D), device=x.device, dtype=x.dtype)
    BLOCK_L, BLOCK_D = 32, 128
    grid = (B, triton.cdiv(D, BLOCK_D))
    _masked_mean_tile[grid](x, mask, out, L, D, x.stride(0), x.stride(1), mask.stride(0),
                            BLOCK_L=BLOCK_L, BLOCK_D=BLOCK_D, num_warps=4)
    return out
