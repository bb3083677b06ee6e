"""Cosine similarity in three launches: a squared-norm kernel run on each input,
then a dot kernel that divides by the stored norms."""
import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


def pick_num_warps(block):
    return max(1, min(16, block // 256))


@triton.jit
def row_sq_norm_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row.to(tl.int64) * stride + offs, mask=offs < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x * x, axis=0))


@triton.jit
def row_dot_div_kernel(a_ptr, b_ptr, na_ptr, nb_ptr, out_ptr, stride_a, stride_b, n_cols, eps,
                       BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    msk = offs < n_cols
    a = tl.load(a_ptr + row.to(tl.int64) * stride_a + offs, mask=msk, other=0.0)
    b = tl.load(b_ptr + row.to(tl.int64) * stride_b + offs, mask=msk, other=0.0)
    den = tl.sqrt(tl.load(na_ptr + row)) * tl.sqrt(tl.load(nb_ptr + row))
    tl.store(out_ptr + row, tl.sum(a * b, axis=0) / tl.maximum(den, eps))


class CosSim(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x1, x2, eps):
        n_cols = x1.shape[-1]
        a = x1.contiguous().view(-1, n_cols)
        b = x2.contiguous().view(-1, n_cols)
        n_rows = a.shape[0]
        BLOCK = min(MAX_FUSED_SIZE, triton.next_power_of_2(n_cols))
        nw = pick_num_warps(BLOCK)
        na = torch.empty(n_rows, device=a.device, dtype=torch.float32)
        nb = torch.empty_like(na)
        row_sq_norm_kernel[(n_rows,)](a, na, a.stride(0), n_cols, BLOCK=BLOCK, num_warps=nw)
        row_sq_norm_kernel[(n_rows,)](b, nb, b.stride(0), n_cols, BLOCK=BLOCK, num_warps=nw)
        out = torch.empty_like(na)
        row_dot_div_kernel[(n_rows,)](a, b, na, nb, out, a.stride(0), b.stride(0), n_cols, eps,
                                      BLOCK=BLOCK, num_warps=nw)
        return out.view(x1.shape[:-1])


def cosine_similarity(x1, x2, eps=1e-8):
    return CosSim.apply(x1, x2, eps)
