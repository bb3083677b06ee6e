"""Per-row KL divergence, 4 rows per program: a [4, 1024] tile of p and of q (masked
to the shape), reduced along axis 1; 8 warps, a quarter of the programs."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = kl_div_rows(p, q); p: f32[32768, 1024] rand; q: f32[32768, 1024] rand; rtol = 1e-3; atol = 1e-2
@triton.jit
def kl_div_kernel(p_ptr, q_ptr, out_ptr, n_rows, n_cols, stride, eps, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    p = tl.load(p_ptr + offs, mask=mask, other=0.0) + eps
    q = tl.load(q_ptr + offs, mask=mask, other=0.0) + eps
    terms = tl.where(mask, p * (tl.log(p) - tl.log(q)), 0.0)
    tl.store(out_ptr + rows, tl.sum(terms, axis=1), mask=rows < n_rows)


def kl_div_rows(p: torch.Tensor, q: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = p.shape
    out = torch.empty((n_rows,), device=p.device, dtype=torch.float32)
    ROWS = 4
    kl_div_kernel[(triton.cdiv(n_rows, ROWS),)](p, q, out, n_rows, n_cols, p.stride(0), eps, ROWS=ROWS,
                                                BLOCK=triton.next_power_of_2(n_cols), num_warps=8)
    return out
