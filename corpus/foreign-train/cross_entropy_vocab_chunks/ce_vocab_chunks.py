import torch
import triton
import triton.language as tl


@triton.jit
def _ce_chunk_lse_kernel(logits_ptr, part_max_ptr, part_sum_ptr, stride_row, n_cols, n_chunks,
                         CHUNK: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # grid (rows, vocab chunks): a partial max / sum-exp per chunk
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    base = logits_ptr + row.to(tl.int64) * stride_row
    start = chunk * CHUNK
    m = float("-inf")
    d = 0.0
    for off in range(0, CHUNK, BLOCK_SIZE):
        cols = start + off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(base + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    tl.store(part_max_ptr + row * n_chunks + chunk, m)
    tl.store(part_sum_ptr + row * n_chunks + chunk, d)


@triton.jit
def _ce_combine_kernel(logits_ptr, labels_ptr, part_max_ptr, part_sum_ptr, loss_ptr,
                       stride_row, n_chunks, ignore_index, BLOCK_CHUNKS: tl.constexpr):
    row = tl.program_id(0)
    idx = tl.arange(0, BLOCK_CHUNKS)
    mask = idx < n_chunks
    pm = tl.load(part_max_ptr + row * n_chunks + idx, mask=mask, other=float("-inf"))
    ps = tl.load(part_sum_ptr + row * n_chunks + idx, mask=mask, other=0.0)
    m = tl.max(pm, axis=0)
    lse = m + tl.log(tl.sum(ps * tl.exp(pm - m), axis=0))
    label = tl.load(labels_ptr + row)
    valid = label != ignore_index
    x_label = tl.load(logits_ptr + row.to(tl.int64) * stride_row + label, mask=valid, other=0.0).to(tl.float32)
    tl.store(loss_ptr + row, tl.where(valid, lse - x_label, 0.0))


def cross_entropy(logits, labels, ignore_index=-100):
    assert logits.ndim == 2 and logits.stride(-1) == 1
    n_rows, n_cols = logits.shape
    CHUNK = 8192
    n_chunks = triton.cdiv(n_cols, CHUNK)
    part_max = torch.empty((n_rows, n_chunks), dtype=torch.float32, device=logits.device)
    part_sum = torch.empty((n_rows, n_chunks), dtype=torch.float32, device=logits.device)
    loss = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    _ce_chunk_lse_kernel[(n_rows, n_chunks)](logits, part_max, part_sum, logits.stride(0), n_cols,
                                             n_chunks, CHUNK=CHUNK, BLOCK_SIZE=2048, num_warps=8)
    _ce_combine_kernel[(n_rows,)](logits, labels, part_max, part_sum, loss, logits.stride(0),
                                  n_chunks, ignore_index,
                                  BLOCK_CHUNKS=triton.next_power_of_2(n_chunks), num_warps=1)
    return loss
