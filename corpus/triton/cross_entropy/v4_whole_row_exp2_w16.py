"""Per-row cross-entropy loss = logsumexp(row) - row[label], one program per row
holding the whole row in registers, 16 warps, exp2/log2 with the log2(e) scale
folded into the subtraction of the max."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = cross_entropy(logits, labels); logits: f32[8192, 8192]; labels: i64[8192] randint(0, 8192); rtol = 1e-4; atol = 1e-4
@triton.jit
def cross_entropy_kernel(logits_ptr, labels_ptr, loss_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(row_ptr + cols, mask=cols < n_cols, other=float("-inf"))
    m = tl.max(x, axis=0)
    s = tl.sum(tl.exp2((x - m) * 1.4426950408889634), axis=0)
    lse = m + tl.log2(s) * 0.6931471805599453
    label = tl.load(labels_ptr + row)
    x_label = tl.load(row_ptr + label)
    tl.store(loss_ptr + row, lse - x_label)


def cross_entropy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = logits.shape
    loss = torch.empty((n_rows,), device=logits.device, dtype=torch.float32)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    cross_entropy_kernel[(n_rows,)](logits, labels, loss, logits.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE,
                                    num_warps=16)
    return loss
