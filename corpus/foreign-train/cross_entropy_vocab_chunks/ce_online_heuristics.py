import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 8192


@triton.heuristics({
    "BLOCK_SIZE": lambda args: min(MAX_FUSED_SIZE, triton.next_power_of_2(args["n_cols"])),
})
@triton.jit
def cross_entropy_fwd_kernel(logits_ptr, labels_ptr, loss_ptr, logits_row_stride, n_cols, ignore_index,
                             BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_ptr = logits_ptr + row_idx * logits_row_stride
    running_max = float("-inf")
    running_sum = 0.0
    for block_start in range(0, n_cols, BLOCK_SIZE):
        offsets = block_start + tl.arange(0, BLOCK_SIZE)
        vals = tl.load(row_ptr + offsets, mask=offsets < n_cols, other=float("-inf")).to(tl.float32)
        block_max = tl.maximum(running_max, tl.max(vals, axis=0))
        running_sum = running_sum * tl.exp(running_max - block_max) + tl.sum(tl.exp(vals - block_max), axis=0)
        running_max = block_max
    logsumexp = running_max + tl.log(running_sum)
    target = tl.load(labels_ptr + row_idx)
    keep = target != ignore_index
    target_logit = tl.load(row_ptr + target, mask=keep, other=0.0).to(tl.float32)
    tl.store(loss_ptr + row_idx, tl.where(keep, logsumexp - target_logit, 0.0))


def _num_warps(n_cols):
    return 16 if n_cols >= 65536 else 8 if n_cols >= 8192 else 4


def cross_entropy(logits, labels, ignore_index=-100):
    assert logits.ndim == 2 and logits.stride(-1) == 1, "expects [tokens, vocab] logits"
    assert labels.shape[0] == logits.shape[0]
    n_rows, n_cols = logits.shape
    loss = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
    cross_entropy_fwd_kernel[(n_rows,)](logits, labels, loss, logits.stride(0), n_cols, ignore_index,
                                        num_warps=_num_warps(n_cols))
    return loss
