"""Unfused: bias add, leaky ReLU and the dropout mask are three kernels with
full-size temporaries between them."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_bias_kernel(x_ptr, b_ptr, y_ptr, n, n_cols, BLOCK: tl.constexpr):
    o = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=m) + tl.load(b_ptr + o % n_cols, mask=m), mask=m)


@triton.jit
def leaky_relu_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    o = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    v = tl.load(x_ptr + o, mask=m)
    tl.store(y_ptr + o, tl.where(v > 0, v, v * slope), mask=m)


@triton.jit
def apply_dropout_mask_kernel(x_ptr, keep_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    o = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    v = tl.load(x_ptr + o, mask=m)
    k = tl.load(keep_ptr + o, mask=m, other=0)
    tl.store(y_ptr + o, tl.where(k != 0, v * scale, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self, negative_slope, p):
        super().__init__()
        self.slope = negative_slope
        self.p = p

    def forward(self, x, bias, keep):
        n = x.numel()
        BLOCK = 1024
        grid = (triton.cdiv(n, BLOCK),)
        h = torch.empty_like(x)
        add_bias_kernel[grid](x, bias, h, n, x.shape[-1], BLOCK=BLOCK)
        leaky_relu_kernel[grid](h, h, n, self.slope, BLOCK=BLOCK)
        out = torch.empty_like(x)
        apply_dropout_mask_kernel[grid](h, keep.view(torch.int8), out, n, 1.0 / (1.0 - self.p), BLOCK=BLOCK)
        return out


def get_inputs():
    return [torch.randn(16384, 4100, device="cuda"), torch.randn(4100, device="cuda"),
            torch.rand(16384, 4100, device="cuda") >= 0.1]


def get_init_inputs():
    return [0.01, 0.1]
