import torch
import triton
import triton.language as tl


@triton.jit
def silu_and_mul_kernel(input_ptr, output_ptr, input_row_stride, output_row_stride, d,
                        BLOCK_SIZE: tl.constexpr):
    token = tl.program_id(0).to(tl.int64)
    offsets = tl.program_id(1) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    valid = offsets < d
    x = tl.load(input_ptr + token * input_row_stride + offsets, mask=valid, other=0.0).to(tl.float32)
    y = tl.load(input_ptr + token * input_row_stride + d + offsets, mask=valid, other=0.0).to(tl.float32)
    silu_x = x * tl.sigmoid(x)
    tl.store(output_ptr + token * output_row_stride + offsets,
             (silu_x * y).to(output_ptr.dtype.element_ty), mask=valid)


def silu_and_mul(out, x):
    d = x.shape[-1] // 2
    num_tokens = x.numel() // x.shape[-1]
    block = min(2048, triton.next_power_of_2(d))
    warps = 8 if block >= 2048 else 4
    silu_and_mul_kernel[(num_tokens, triton.cdiv(d, block))](
        x, out, x.stride(-2), out.stride(-2), d, BLOCK_SIZE=block, num_warps=warps)


def swiglu(xy):
    d = xy.shape[-1] // 2
    out = torch.empty(xy.shape[:-1] + (d,), dtype=xy.dtype, device=xy.device)
    silu_and_mul(out, xy)
    return out
