import torch


def decode_attention(q, k_cache, v_cache, seq_lens, sm_scale):
    # q: [B, H, D]; caches: [B, S, H, D]
    S = k_cache.shape[1]
    scores = torch.einsum("bhd,bshd->bhs", q, k_cache).float() * sm_scale
    pos = torch.arange(S, device=q.device)
    pad = pos[None, None, :] >= seq_lens[:, None, None]
    scores = scores.masked_fill(pad, float("-inf"))
    probs = torch.softmax(scores, dim=-1).to(q.dtype)
    return torch.einsum("bhs,bshd->bhd", probs, v_cache)
