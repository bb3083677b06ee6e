import torch
import triton
import triton.language as tl


@triton.jit
def _fused_silu_mul(x_ptr, y_ptr, inter, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    x_row = x_ptr + pid * (2 * inter)
    y_row = y_ptr + pid * inter
    for start in range(0, inter, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < inter
        gate = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        up = tl.load(x_row + inter + offs, mask=mask, other=0.0).to(tl.float32)
        act = gate / (1.0 + tl.exp(-gate))
        tl.store(y_row + offs, (act * up).to(tl.float16), mask=mask)


def swiglu(x):
    n_tok = x.shape[0]
    inter = x.shape[1] // 2
    y = x.new_empty((n_tok, inter))
    _fused_silu_mul[(n_tok,)](x, y, inter, BLOCK=2048, num_warps=8)
    return y
