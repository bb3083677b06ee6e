import torch
import triton
import triton.language as tl


@triton.jit
def _permute_scatter_kernel(hidden_ptr, out_ptr, row_id_map_ptr, stride_h, stride_o, hidden_size,
                            TOP_K: tl.constexpr, BLOCK_H: tl.constexpr):
    # one program per (token, k) pair: copy the token's row to its precomputed slot
    pair = tl.program_id(0)
    token = pair // TOP_K
    dst = tl.load(row_id_map_ptr + pair)
    offs = tl.arange(0, BLOCK_H)
    mask = offs < hidden_size
    row = tl.load(hidden_ptr + token * stride_h + offs, mask=mask)
    tl.store(out_ptr + dst * stride_o + offs, row, mask=mask)


def permute_tokens(hidden, topk_ids):
    num_tokens, top_k = topk_ids.shape
    hidden_size = hidden.shape[1]
    flat_ids = topk_ids.flatten()
    sorted_idx = torch.argsort(flat_ids, stable=True)
    row_id_map = torch.empty(flat_ids.numel(), dtype=torch.int32, device=hidden.device)
    row_id_map[sorted_idx] = torch.arange(flat_ids.numel(), dtype=torch.int32, device=hidden.device)
    out = torch.empty((flat_ids.numel(), hidden_size), dtype=hidden.dtype, device=hidden.device)
    BLOCK_H = triton.next_power_of_2(hidden_size)
    _permute_scatter_kernel[(flat_ids.numel(),)](hidden, out, row_id_map, hidden.stride(0), out.stride(0),
                                                 hidden_size, TOP_K=top_k, BLOCK_H=BLOCK_H,
                                                 num_warps=8 if BLOCK_H >= 4096 else 4)
    return out, row_id_map
