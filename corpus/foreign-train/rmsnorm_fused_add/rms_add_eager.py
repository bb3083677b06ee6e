import torch


def fused_add_rmsnorm(x, residual, weight, eps=1e-6):
    # reference: the residual stream in float32, then the norm, then the gain
    hidden = x.float() + residual.float()
    variance = hidden.pow(2).mean(-1, keepdim=True)
    hidden = hidden * torch.rsqrt(variance + eps)
    return (hidden * weight.float()).to(x.dtype)
