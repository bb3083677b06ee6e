"""One fused AdamW step, in place, with tiny 128-element programs (one element per
thread of 4 warps): 131072 programs, launch and scheduling overhead per byte is high."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = adamw(p, g, m, v, lr, beta1, beta2, eps, wd, step); p: f32[16777216] randn; g: f32[16777216] randn; m: f32[16777216] randn; v: f32[16777216] rand; lr = 0.001; beta1 = 0.9; beta2 = 0.999; eps = 0.00000001; wd = 0.01; step = 10; outputs = p, m, v; rtol = 1e-4; atol = 1e-5
@triton.jit
def adamw_kernel(p_ptr, g_ptr, m_ptr, v_ptr, n, lr, beta1, beta2, eps, wd, bc1, bc2, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    m_hat = m / bc1
    v_hat = v / bc2
    p = p * (1.0 - lr * wd) - lr * m_hat / (tl.sqrt(v_hat) + eps)
    tl.store(p_ptr + offs, p, mask=mask)
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)


def adamw(p: torch.Tensor, g: torch.Tensor, m: torch.Tensor, v: torch.Tensor, lr: float, beta1: float,
          beta2: float, eps: float, wd: float, step: int) -> None:
    n = p.numel()
    bc1 = 1.0 - beta1 ** step
    bc2 = 1.0 - beta2 ** step
    BLOCK = 128
    adamw_kernel[(triton.cdiv(n, BLOCK),)](p, g, m, v, n, lr, beta1, beta2, eps, wd, bc1, bc2,
                                           BLOCK=BLOCK, num_warps=4)
