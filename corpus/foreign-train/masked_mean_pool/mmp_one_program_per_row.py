import torch
import triton
import triton.language as tl


@triton.jit
def masked_mean_row_kernel(x_ptr, m_ptr, out_ptr, seqlen, dim, stride_xb, stride_xl, stride_mb,
                           BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    d = tl.arange(0, BLOCK_D)
    dmask = d < dim
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    cnt = tl.zeros([BLOCK_L], dtype=tl.float32)
    x_row = x_ptr + b.to(tl.int64) * stride_xb
    for l0 in range(0, seqlen, BLOCK_L):
        l = l0 + tl.arange(0, BLOCK_L)
        lmask = l < seqlen
        m = tl.load(m_ptr + b * stride_mb + l, mask=lmask, other=0.0)
        tile = tl.load(x_row + l[:, None].to(tl.int64) * stride_xl + d[None, :],
                       mask=lmask[:, None] & dmask[None, :], other=0.0)
        acc += tl.sum(tile * m[:, None], axis=0)
        cnt += m
    total = tl.sum(cnt, axis=0)
    tl.store(out_ptr + b * dim + d, acc / total, mask=dmask)


def generate_input(batch, seqlen, dim, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(batch, seqlen, dim, device="cuda", generator=gen)
    mask = (torch.rand(batch, seqlen, device="cuda", generator=gen) < 0.6).float()
    mask[:, 0] = 1.0
    return x, mask


def custom_kernel(data):
    x, mask = data
    x = x.contiguous()
    mask = mask.contiguous()
    batch, seqlen, dim = x.shape
    out = torch.empty(batch, dim, device=x.device, dtype=torch.float32)
    BLOCK_D = triton.next_power_of_2(dim)
    masked_mean_row_kernel[(batch,)](x, mask, out, seqlen, dim, x.stride(0), x.stride(1),
                                     mask.stride(0), BLOCK_L=4, BLOCK_D=BLOCK_D, num_warps=8)
    return out
