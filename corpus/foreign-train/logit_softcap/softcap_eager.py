"""Logit soft-capping (as in Gemma 2) before the causal mask, eager torch."""
import torch


def softcap_scores(scores, causal_mask, cap):
    capped = torch.tanh(scores / cap) * cap
    return capped.masked_fill(causal_mask, float("-inf"))
