import torch


def per_token_quant_int8(x):
    x_fp32 = x.float()
    absmax = x_fp32.abs().amax(dim=-1, keepdim=True).clamp(min=1e-10)
    scale = absmax / 127.0
    inv_scale = torch.full_like(absmax, 127.0) / absmax
    q = torch.round(x_fp32 * inv_scale).clamp(-127, 127).to(torch.int8)
    return q, scale
