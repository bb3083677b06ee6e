import torch
import triton
import triton.language as tl


@triton.jit
def silu_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_x, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_rows * n_cols
    r = offs // n_cols
    c = offs % n_cols
    x = tl.load(x_ptr + r * stride_x + c, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (x * tl.sigmoid(x)).to(tl.float16), mask=mask)


@triton.jit
def mul_kernel(a_ptr, b_ptr, out_ptr, n_rows, n_cols, stride_b, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_rows * n_cols
    r = offs // n_cols
    c = offs % n_cols
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + r * stride_b + c, mask=mask, other=0.0)
    tl.store(out_ptr + offs, a * b, mask=mask)


def swiglu(x):
    gate, up = x.chunk(2, dim=-1)
    rows, cols = gate.shape
    act = torch.empty(rows, cols, device=x.device, dtype=x.dtype)
    out = torch.empty_like(act)
    BLOCK = 1024
    grid = (triton.cdiv(rows * cols, BLOCK),)
    silu_kernel[grid](gate, act, rows, cols, gate.stride(0), BLOCK=BLOCK)
    mul_kernel[grid](act, up, out, rows, cols, up.stride(0), BLOCK=BLOCK)
    return out
