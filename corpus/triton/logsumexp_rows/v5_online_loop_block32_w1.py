"""logsumexp of each row with the online algorithm over tiny chunks of 32 (128
iterations for a 4096-wide row), one program per row, a single warp."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = logsumexp_rows(x); x: f32[16384, 4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def logsumexp_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    m = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK_SIZE], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m, x)
        # lanes that have seen nothing yet keep s = 0 (avoid inf - inf)
        scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == float("-inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    tl.store(out_ptr + row, row_max + tl.log(total))


def logsumexp_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    logsumexp_kernel[(n_rows,)](x, out, x.stride(0), n_cols, BLOCK_SIZE=32, num_warps=1)
    return out
