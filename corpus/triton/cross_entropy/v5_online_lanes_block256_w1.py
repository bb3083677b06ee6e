"""Per-row cross-entropy loss = logsumexp(row) - row[label] with an online
log-sum-exp kept per lane (a running max and sum for each of 256 lanes, combined
after the loop) over 256-wide chunks, one warp per row."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = cross_entropy(logits, labels); logits: f32[8192, 8192]; labels: i64[8192] randint(0, 8192); rtol = 1e-4; atol = 1e-4
@triton.jit
def cross_entropy_kernel(logits_ptr, labels_ptr, loss_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row * stride
    m = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK_SIZE], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(row_ptr + cols, mask=cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m, x)
        # lanes that have seen nothing yet keep s = 0 (avoid inf - inf)
        scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == float("-inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    lse = row_max + tl.log(total)
    label = tl.load(labels_ptr + row)
    x_label = tl.load(row_ptr + label)
    tl.store(loss_ptr + row, lse - x_label)


def cross_entropy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    loss = torch.empty((n_rows,), device=logits.device, dtype=torch.float32)
    cross_entropy_kernel[(n_rows,)](logits, labels, loss, logits.stride(0), n_cols, BLOCK_SIZE=256, num_warps=1)
    return loss
