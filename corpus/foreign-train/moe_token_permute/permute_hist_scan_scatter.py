import torch
import triton
import triton.language as tl


@triton.jit
def _expert_histogram_kernel(ids_ptr, counts_ptr, n_pairs, num_experts,
                             BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    # counts[block, e] = pairs of this block routed to expert e
    pid = tl.program_id(0)
    offs = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    ids = tl.load(ids_ptr + offs, mask=offs < n_pairs, other=-1)
    e = tl.arange(0, BLOCK_E)
    onehot = (ids[:, None] == e[None, :]).to(tl.int32)
    tl.store(counts_ptr + pid * num_experts + e, tl.sum(onehot, axis=0), mask=e < num_experts)


@triton.jit
def _expert_offsets_kernel(counts_ptr, offsets_ptr, n_blocks, num_experts,
                           BLOCK_NB: tl.constexpr, BLOCK_E: tl.constexpr):
    # one program: exclusive prefix sums over experts, then over blocks inside each expert
    b = tl.arange(0, BLOCK_NB)
    e = tl.arange(0, BLOCK_E)
    mask = (b[:, None] < n_blocks) & (e[None, :] < num_experts)
    ptrs = b[:, None] * num_experts + e[None, :]
    c = tl.load(counts_ptr + ptrs, mask=mask, other=0)
    per_expert = tl.sum(c, axis=0)
    expert_start = tl.cumsum(per_expert, axis=0) - per_expert
    block_start = tl.cumsum(c, axis=0) - c
    tl.store(offsets_ptr + ptrs, block_start + expert_start[None, :], mask=mask)


@triton.jit
def _scatter_rows_kernel(hidden_ptr, ids_ptr, offsets_ptr, out_ptr, row_id_map_ptr,
                         stride_h, stride_o, n_pairs, num_experts, hidden_size,
                         TOP_K: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_H: tl.constexpr):
    # one program per pair: its rank among the earlier pairs of its block with the same expert
    pair = tl.program_id(0)
    blk = pair // BLOCK_T
    expert = tl.load(ids_ptr + pair)
    j = blk * BLOCK_T + tl.arange(0, BLOCK_T)
    ids_blk = tl.load(ids_ptr + j, mask=j < n_pairs, other=-1)
    rank = tl.sum(((ids_blk == expert) & (j < pair)).to(tl.int32), axis=0)
    dst = tl.load(offsets_ptr + blk * num_experts + expert) + rank
    tl.store(row_id_map_ptr + pair, dst)
    offs = tl.arange(0, BLOCK_H)
    mask = offs < hidden_size
    row = tl.load(hidden_ptr + (pair // TOP_K) * stride_h + offs, mask=mask)
    tl.store(out_ptr + dst * stride_o + offs, row, mask=mask)


def permute_tokens(hidden, topk_ids, num_experts=64):
    num_tokens, top_k = topk_ids.shape
    hidden_size = hidden.shape[1]
    ids = topk_ids.contiguous().view(-1)
    n = ids.numel()
    BLOCK_T = 256
    n_blocks = triton.cdiv(n, BLOCK_T)
    BLOCK_E = triton.next_power_of_2(num_experts)
    counts = torch.empty((n_blocks, num_experts), dtype=torch.int32, device=hidden.device)
    offsets = torch.empty_like(counts)
    row_id_map = torch.empty(n, dtype=torch.int32, device=hidden.device)
    out = torch.empty((n, hidden_size), dtype=hidden.dtype, device=hidden.device)
    _expert_histogram_kernel[(n_blocks,)](ids, counts, n, num_experts, BLOCK_T=BLOCK_T, BLOCK_E=BLOCK_E)
    _expert_offsets_kernel[(1,)](counts, offsets, n_blocks, num_experts,
                                 BLOCK_NB=triton.next_power_of_2(n_blocks), BLOCK_E=BLOCK_E, num_warps=8)
    BLOCK_H = triton.next_power_of_2(hidden_size)
    _scatter_rows_kernel[(n,)](hidden, ids, offsets, out, row_id_map, hidden.stride(0), out.stride(0),
                               n, num_experts, hidden_size, TOP_K=top_k, BLOCK_T=BLOCK_T, BLOCK_H=BLOCK_H,
                               num_warps=8 if BLOCK_H >= 4096 else 4)
    return out, row_id_map
