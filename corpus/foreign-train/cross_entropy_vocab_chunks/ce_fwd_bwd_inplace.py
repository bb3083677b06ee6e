import torch
import triton
import triton.language as tl


@triton.jit
def _ce_fwd_bwd_kernel(logits_ptr, labels_ptr, loss_ptr, stride_row, n_cols, ignore_index,
                       BLOCK_SIZE: tl.constexpr):
    # forward (online logsumexp), then d(loss)/d(logits) = softmax - onehot written over the
    # logits, so training never keeps a second [T, V] tensor
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * stride_row
    label = tl.load(labels_ptr + row)
    valid = label != ignore_index
    m = float("-inf")
    d = 0.0
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    x_label = tl.load(logits_ptr + label, mask=valid, other=0.0).to(tl.float32)
    tl.store(loss_ptr + row, tl.where(valid, lse - x_label, 0.0))
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(logits_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        grad = tl.exp(x - lse) - tl.where(cols == label, 1.0, 0.0)
        grad = tl.where(valid, grad, 0.0)
        tl.store(logits_ptr + cols, grad.to(logits_ptr.dtype.element_ty), mask=mask)


def cross_entropy(logits, labels, ignore_index=-100):
    """Per-token loss; `logits` is overwritten with the gradient of loss.sum()."""
    assert logits.ndim == 2 and logits.is_contiguous()
    n_rows, n_cols = logits.shape
    loss = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    _ce_fwd_bwd_kernel[(n_rows,)](logits, labels, loss, logits.stride(0), n_cols, ignore_index,
                                  BLOCK_SIZE=4096, num_warps=8)
    return loss
