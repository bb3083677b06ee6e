import torch
import triton
import triton.language as tl


def generate_input(rows: int, cols: int, seed: int):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(rows, cols, device="cuda", dtype=torch.float16, generator=gen)
    return x, torch.ones(cols, device="cuda", dtype=torch.float16), torch.zeros(cols, device="cuda", dtype=torch.float16)


@triton.jit
def _ln_row(x_ptr, y_ptr, w_ptr, b_ptr, row_stride, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    valid = idx < n_cols
    v = tl.load(x_ptr + pid * row_stride + idx, mask=valid, other=0.0).to(tl.float32)
    mu = tl.sum(v, axis=0) / n_cols
    centered = tl.where(valid, v - mu, 0.0)
    inv_std = tl.rsqrt(tl.sum(centered * centered, axis=0) / n_cols + eps)
    gamma = tl.load(w_ptr + idx, mask=valid).to(tl.float32)
    beta = tl.load(b_ptr + idx, mask=valid).to(tl.float32)
    out = centered * inv_std * gamma + beta
    tl.store(y_ptr + pid * row_stride + idx, out.to(tl.float16), mask=valid)


def custom_kernel(data):
    x, w, b = data
    out = torch.empty_like(x)
    _ln_row[(x.shape[0],)](x, out, w, b, x.stride(0), x.shape[1], 1e-5,
                           BLOCK=triton.next_power_of_2(x.shape[1]), num_warps=4)
    return out
