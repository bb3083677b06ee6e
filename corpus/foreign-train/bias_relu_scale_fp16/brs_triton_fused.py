import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fused_bias_relu_scale(x_ptr, b_ptr, out_ptr, n_elements, n_cols, scale,
                          BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offsets % n_cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.maximum(x + b, 0.0) * scale
    tl.store(out_ptr + offsets, y.to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, b):
        x = x.contiguous()
        out = torch.empty_like(x)
        n_elements = x.numel()
        BLOCK_SIZE = 2048
        grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
        fused_bias_relu_scale[grid](x, b, out, n_elements, x.shape[-1], self.scale,
                                    BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
        return out


batch_size = 16384
features = 8200


def get_inputs():
    x = torch.randn(batch_size, features, device="cuda", dtype=torch.half)
    b = torch.randn(features, device="cuda", dtype=torch.half)
    return [x, b]


def get_init_inputs():
    return [0.75]
