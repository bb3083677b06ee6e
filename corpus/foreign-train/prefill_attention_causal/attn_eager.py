import torch


def attention(q, k, v, sm_scale):
    # plain causal attention: materialise the [T, T] scores per head
    n_ctx = q.shape[2]
    scores = torch.matmul(q, k.transpose(-2, -1)) * sm_scale
    causal = torch.ones(n_ctx, n_ctx, dtype=torch.bool, device=q.device).triu(1)
    scores = scores.float().masked_fill(causal, float("-inf"))
    probs = torch.softmax(scores, dim=-1).to(q.dtype)
    return torch.matmul(probs, v)
