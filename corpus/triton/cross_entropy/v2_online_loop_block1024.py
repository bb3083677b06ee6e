"""Per-row cross-entropy loss = logsumexp(row) - row[label] with an online
log-sum-exp: one loop over 1024-wide chunks keeps a running max and a rescaled
running sum (the row is read once, whatever its length); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = cross_entropy(logits, labels); logits: f32[8192, 8192]; labels: i64[8192] randint(0, 8192); rtol = 1e-4; atol = 1e-4
@triton.jit
def cross_entropy_kernel(logits_ptr, labels_ptr, loss_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row * stride
    m = float("-inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(row_ptr + cols, mask=cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    label = tl.load(labels_ptr + row)
    x_label = tl.load(row_ptr + label)
    tl.store(loss_ptr + row, lse - x_label)


def cross_entropy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    loss = torch.empty((n_rows,), device=logits.device, dtype=torch.float32)
    cross_entropy_kernel[(n_rows,)](logits, labels, loss, logits.stride(0), n_cols, BLOCK_SIZE=1024, num_warps=4)
    return loss
