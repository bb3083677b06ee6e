"""Per-row cross-entropy loss = logsumexp(row) - row[label] for rows of any length:
one loop over 1024-wide chunks finds the row max, a second loop sums exp(x - max)
(the row is read twice); one program per row, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = cross_entropy(logits, labels); logits: f32[8192, 8192]; labels: i64[8192] randint(0, 8192); rtol = 1e-4; atol = 1e-4
@triton.jit
def cross_entropy_kernel(logits_ptr, labels_ptr, loss_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row * stride
    m = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        m = tl.maximum(m, tl.load(row_ptr + cols, mask=cols < n_cols, other=float("-inf")))
    row_max = tl.max(m, axis=0)
    s = tl.zeros([BLOCK_SIZE], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(row_ptr + cols, mask=cols < n_cols, other=float("-inf"))
        s += tl.exp(x - row_max)
    lse = row_max + tl.log(tl.sum(s, axis=0))
    label = tl.load(labels_ptr + row)
    x_label = tl.load(row_ptr + label)
    tl.store(loss_ptr + row, lse - x_label)


def cross_entropy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    loss = torch.empty((n_rows,), device=logits.device, dtype=torch.float32)
    cross_entropy_kernel[(n_rows,)](logits, labels, loss, logits.stride(0), n_cols, BLOCK_SIZE=1024, num_warps=4)
    return loss
