import torch
import triton
import triton.language as tl


@triton.jit
def moe_gather_rows_kernel(hidden_ptr, out_ptr, sorted_idx_ptr, stride_h, stride_o, hidden_size,
                           TOP_K: tl.constexpr, BLOCK_H: tl.constexpr):
    # one program per output row: read the source pair's token row, write contiguously
    dst = tl.program_id(0)
    token = tl.load(sorted_idx_ptr + dst) // TOP_K
    offs = tl.arange(0, BLOCK_H)
    mask = offs < hidden_size
    row = tl.load(hidden_ptr + token * stride_h + offs, mask=mask)
    tl.store(out_ptr + dst * stride_o + offs, row, mask=mask)


def permute_tokens(hidden, topk_ids):
    num_tokens, top_k = topk_ids.shape
    hidden_size = hidden.shape[1]
    n = topk_ids.numel()
    sorted_idx = torch.argsort(topk_ids.flatten(), stable=True).to(torch.int32)
    row_id_map = torch.empty(n, dtype=torch.int32, device=hidden.device)
    row_id_map[sorted_idx.long()] = torch.arange(n, dtype=torch.int32, device=hidden.device)
    out = torch.empty((n, hidden_size), dtype=hidden.dtype, device=hidden.device)
    BLOCK_H = triton.next_power_of_2(hidden_size)
    moe_gather_rows_kernel[(n,)](hidden, out, sorted_idx, hidden.stride(0), out.stride(0), hidden_size,
                                 TOP_K=top_k, BLOCK_H=BLOCK_H, num_warps=8 if BLOCK_H >= 4096 else 4)
    return out, row_id_map
