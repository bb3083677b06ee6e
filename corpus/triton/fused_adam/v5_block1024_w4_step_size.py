"""One fused AdamW step, in place, 1024-element programs on 4 warps, written the way
torch.optim does it: step_size = lr / bc1 and sqrt(bc2) folded on the host, the
weight decay applied first."""
import math

import torch
import triton
import triton.language as tl


# kforecast: wrapper = adamw(p, g, m, v, lr, beta1, beta2, eps, wd, step); p: f32[16777216] randn; g: f32[16777216] randn; m: f32[16777216] randn; v: f32[16777216] rand; lr = 0.001; beta1 = 0.9; beta2 = 0.999; eps = 0.00000001; wd = 0.01; step = 10; outputs = p, m, v; rtol = 1e-4; atol = 1e-5
@triton.jit
def adamw_kernel(p_ptr, g_ptr, m_ptr, v_ptr, n, lr, beta1, beta2, eps, wd, bc1, bc2, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    idx = pid * BLOCK + tl.arange(0, BLOCK)
    inb = idx < n
    grad = tl.load(g_ptr + idx, mask=inb)
    exp_avg = tl.load(m_ptr + idx, mask=inb)
    exp_avg_sq = tl.load(v_ptr + idx, mask=inb)
    exp_avg = exp_avg * beta1 + grad * (1.0 - beta1)
    exp_avg_sq = exp_avg_sq * beta2 + grad * grad * (1.0 - beta2)
    tl.store(m_ptr + idx, exp_avg, mask=inb)
    tl.store(v_ptr + idx, exp_avg_sq, mask=inb)
    param = tl.load(p_ptr + idx, mask=inb)
    param = param * (1.0 - lr * wd)
    denom = tl.sqrt(exp_avg_sq) / bc2 + eps
    param = param - (lr / bc1) * exp_avg / denom
    tl.store(p_ptr + idx, param, mask=inb)


def adamw(p: torch.Tensor, g: torch.Tensor, m: torch.Tensor, v: torch.Tensor, lr: float, beta1: float,
          beta2: float, eps: float, wd: float, step: int) -> None:
    n = p.numel()
    bc1 = 1.0 - beta1 ** step
    bc2_sqrt = math.sqrt(1.0 - beta2 ** step)
    BLOCK = 1024
    adamw_kernel[(triton.cdiv(n, BLOCK),)](p, g, m, v, n, lr, beta1, beta2, eps, wd, bc1, bc2_sqrt,
                                           BLOCK=BLOCK, num_warps=4)
