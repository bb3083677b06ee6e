import torch


def permute_tokens(hidden, topk_ids):
    num_tokens, top_k = topk_ids.shape
    flat_ids = topk_ids.flatten()
    sorted_idx = torch.argsort(flat_ids, stable=True)
    permuted = hidden.index_select(0, sorted_idx // top_k)
    row_id_map = torch.empty_like(sorted_idx)
    row_id_map[sorted_idx] = torch.arange(sorted_idx.numel(), device=hidden.device)
    return permuted, row_id_map.to(torch.int32)
