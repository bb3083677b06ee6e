"""Per-row KL divergence out[r] = sum_j p (log p - log q) (p, q shifted by eps): one
program per row loads the whole row of p and q (BLOCK = 1024 >= n_cols, masked) and
reduces with tl.sum; 4 warps; the logs are taken as log2 scaled by ln 2."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = kl_div_rows(p, q); p: f32[32768, 1024] rand; q: f32[32768, 1024] rand; rtol = 1e-3; atol = 1e-2
@triton.jit
def kl_div_kernel(p_ptr, q_ptr, out_ptr, n_rows, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    p = tl.load(p_ptr + row * stride + cols, mask=mask, other=0.0) + eps
    q = tl.load(q_ptr + row * stride + cols, mask=mask, other=0.0) + eps
    # natural log as log2(x) * ln 2
    terms = tl.where(mask, p * (tl.log2(p) - tl.log2(q)) * 0.6931471805599453, 0.0)
    tl.store(out_ptr + row, tl.sum(terms, axis=0))


def kl_div_rows(p: torch.Tensor, q: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = p.shape
    out = torch.empty((n_rows,), device=p.device, dtype=torch.float32)
    kl_div_kernel[(n_rows,)](p, q, out, n_rows, n_cols, p.stride(0), eps, BLOCK=triton.next_power_of_2(n_cols),
                             num_warps=4)
    return out
