"""Per-token dynamic int8 quantisation: a reduction pass for the scales, then the quantise pass."""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

_EPS = 1e-10
_REDUCE_BLOCK = 1024
_QUANT_BLOCK = 2048


@triton.jit
def token_absmax_kernel(inp, absmax_out, scale_out, inp_row_stride, hidden, eps, BLOCK: tl.constexpr):
    token = tl.program_id(0)
    running = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, hidden, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        vals = tl.load(inp + token * inp_row_stride + offs, mask=offs < hidden, other=0.0)
        running = tl.maximum(running, tl.abs(vals.to(tl.float32)))
    amax = tl.maximum(tl.max(running, axis=0), eps)
    tl.store(absmax_out + token, amax)
    tl.store(scale_out + token, amax / 127.0)


@triton.jit
def token_quant_kernel(inp, absmax_in, out, inp_row_stride, out_row_stride, hidden, BLOCK: tl.constexpr):
    token = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < hidden
    vals = tl.load(inp + token * inp_row_stride + offs, mask=in_range, other=0.0).to(tl.float32)
    inv_scale = tl.math.div_rn(127.0, tl.load(absmax_in + token))
    rounded = tl.clamp(libdevice.rint(vals * inv_scale), -127.0, 127.0)
    tl.store(out + token * out_row_stride + offs, rounded.to(tl.int8), mask=in_range)


def _as_tokens(x):
    hidden = x.shape[-1]
    return x.reshape(-1, hidden), hidden


def per_token_quant_int8(x):
    assert x.dtype in (torch.float16, torch.bfloat16, torch.float32)
    x2d, hidden = _as_tokens(x)
    tokens = x2d.shape[0]
    q = torch.empty((tokens, hidden), dtype=torch.int8, device=x.device)
    scale = torch.empty((tokens, 1), dtype=torch.float32, device=x.device)
    absmax = torch.empty(tokens, dtype=torch.float32, device=x.device)
    token_absmax_kernel[(tokens,)](x2d, absmax, scale, x2d.stride(0), hidden, _EPS,
                                   BLOCK=_REDUCE_BLOCK, num_warps=4)
    token_quant_kernel[(tokens, triton.cdiv(hidden, _QUANT_BLOCK))](
        x2d, absmax, q, x2d.stride(0), q.stride(0), hidden, BLOCK=_QUANT_BLOCK, num_warps=8)
    return q.view(x.shape), scale.view(*x.shape[:-1], 1)
