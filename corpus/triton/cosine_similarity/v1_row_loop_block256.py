"""Row-wise cosine similarity, one program per row, looping over the row in chunks
of 256 (768 = 3 chunks, no masked-off lanes) with three vector accumulators
reduced once at the end; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = cosine_similarity(a, b); a: f32[65536, 768]; b: f32[65536, 768]; rtol = 1e-3; atol = 1e-5
@triton.jit
def cosine_kernel(a_ptr, b_ptr, out_ptr, n_rows, dim, stride, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    acc_ab = tl.zeros([BLOCK_D], dtype=tl.float32)
    acc_aa = tl.zeros([BLOCK_D], dtype=tl.float32)
    acc_bb = tl.zeros([BLOCK_D], dtype=tl.float32)
    for start in range(0, dim, BLOCK_D):
        cols = start + tl.arange(0, BLOCK_D)
        mask = cols < dim
        a = tl.load(a_ptr + row * stride + cols, mask=mask, other=0.0)
        b = tl.load(b_ptr + row * stride + cols, mask=mask, other=0.0)
        acc_ab += a * b
        acc_aa += a * a
        acc_bb += b * b
    dot = tl.sum(acc_ab, axis=0)
    na = tl.sqrt(tl.sum(acc_aa, axis=0))
    nb = tl.sqrt(tl.sum(acc_bb, axis=0))
    tl.store(out_ptr + row, dot / tl.maximum(na * nb, eps))


def cosine_similarity(a: torch.Tensor, b: torch.Tensor, eps: float = 1e-8) -> torch.Tensor:
    n_rows, dim = a.shape
    out = torch.empty((n_rows,), device=a.device, dtype=torch.float32)
    cosine_kernel[(n_rows,)](a, b, out, n_rows, dim, a.stride(0), eps, BLOCK_D=256, num_warps=4)
    return out
