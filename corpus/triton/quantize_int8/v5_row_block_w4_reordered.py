"""Per-row symmetric int8 quantisation: scale = max|x| / 127 per row, q = round(x /
scale) (half away from zero) clamped to [-127, 127]; one program per row, whole
row in registers, 4 warps; the one-pass version with renamed variables, row
pointers computed first, and the scale stored before the quantised row."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = quantize_int8(x); x: f32[8192, 4096]; rtol = 1e-6; atol = 1e-6
@triton.jit
def quantize_int8_kernel(x_ptr, q_ptr, scale_ptr, n_rows, n_cols, stride_x, stride_q, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    src = x_ptr + pid * stride_x
    dst = q_ptr + pid * stride_q
    offs = tl.arange(0, BLOCK_SIZE)
    valid = offs < n_cols
    v = tl.load(src + offs, mask=valid, other=0.0)
    s = tl.maximum(tl.max(tl.abs(v), axis=0), 1e-12) / 127.0
    tl.store(scale_ptr + pid, s)
    r = v / s
    r = tl.where(r >= 0, tl.floor(r + 0.5), tl.ceil(r - 0.5))
    r = tl.minimum(tl.maximum(r, -127.0), 127.0)
    tl.store(dst + offs, r.to(tl.int8), mask=valid)


def quantize_int8(x: torch.Tensor):
    n_rows, n_cols = x.shape
    q = torch.empty((n_rows, n_cols), device=x.device, dtype=torch.int8)
    scales = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    quantize_int8_kernel[(n_rows,)](x, q, scales, n_rows, n_cols, x.stride(0), q.stride(0),
                                    BLOCK_SIZE=triton.next_power_of_2(n_cols), num_warps=4)
    return q, scales
