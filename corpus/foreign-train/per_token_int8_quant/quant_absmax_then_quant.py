import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _row_absmax_kernel(x_ptr, absmax_ptr, scale_ptr, stride_x, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=0.0).to(tl.float32)
        acc = tl.maximum(acc, tl.abs(x))
    absmax = tl.maximum(tl.max(acc, axis=0), eps)
    tl.store(absmax_ptr + row, absmax)
    tl.store(scale_ptr + row, absmax / 127.0)


@triton.jit
def _quantize_kernel(x_ptr, absmax_ptr, q_ptr, stride_x, stride_q, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    inv_scale = tl.math.div_rn(127.0, tl.load(absmax_ptr + row))
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    q = libdevice.rint(x * inv_scale)
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(q_ptr + row * stride_q + cols, q.to(tl.int8), mask=mask)


def per_token_quant_int8(x):
    M = x.numel() // x.shape[-1]
    N = x.shape[-1]
    x2 = x.reshape(M, N)
    q = torch.empty((M, N), dtype=torch.int8, device=x.device)
    scale = torch.empty((M, 1), dtype=torch.float32, device=x.device)
    absmax = torch.empty(M, dtype=torch.float32, device=x.device)
    _row_absmax_kernel[(M,)](x2, absmax, scale, x2.stride(0), N, 1e-10, BLOCK=1024, num_warps=4)
    BLOCK = 2048
    _quantize_kernel[(M, triton.cdiv(N, BLOCK))](x2, absmax, q, x2.stride(0), q.stride(0), N,
                                                 BLOCK=BLOCK, num_warps=8)
    return q.view(x.shape), scale.view(*x.shape[:-1], 1)
