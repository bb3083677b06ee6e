import torch
import triton
import triton.language as tl


@triton.jit
def _ce_fwd_kernel(logits_ptr, labels_ptr, loss_ptr, stride_row, n_cols, ignore_index,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    logits_ptr += row * stride_row
    # pass 1: row max
    m_vec = tl.full([BLOCK_SIZE], float("-inf"), dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_vec = tl.maximum(m_vec, x)
    m = tl.max(m_vec, axis=0)
    # pass 2: sum of exp(x - max)
    s_vec = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        s_vec += tl.exp(x - m)
    lse = m + tl.log(tl.sum(s_vec, axis=0))
    label = tl.load(labels_ptr + row)
    valid = label != ignore_index
    x_label = tl.load(logits_ptr + label, mask=valid, other=0.0).to(tl.float32)
    tl.store(loss_ptr + row, tl.where(valid, lse - x_label, 0.0))


def cross_entropy(logits, labels, ignore_index=-100):
    assert logits.ndim == 2 and logits.stride(-1) == 1
    n_rows, n_cols = logits.shape
    loss = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    _ce_fwd_kernel[(n_rows,)](logits, labels, loss, logits.stride(0), n_cols, ignore_index,
                              BLOCK_SIZE=4096, num_warps=8)
    return loss
