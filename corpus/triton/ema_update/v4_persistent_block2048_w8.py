"""EMA of weights in place, persistent: a fixed grid of 528 programs (132 SMs x 4) loops
over 2048-element tiles with a grid stride, ema = decay * ema + (1 - decay) * w; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = ema_update(ema, w, decay); ema: f32[67108864] randn; w: f32[67108864] randn; decay = 0.999; outputs = ema; rtol = 1e-5; atol = 1e-5
@triton.jit
def ema_update_kernel(ema_ptr, w_ptr, n, decay, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    keep = decay
    mix = 1.0 - decay
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        e = tl.load(ema_ptr + offs, mask=mask)
        x = tl.load(w_ptr + offs, mask=mask)
        tl.store(ema_ptr + offs, keep * e + mix * x, mask=mask)


def ema_update(ema: torch.Tensor, w: torch.Tensor, decay: float) -> torch.Tensor:
    n = ema.numel()
    BLOCK = 2048
    grid = (min(triton.cdiv(n, BLOCK), 132 * 4),)
    ema_update_kernel[grid](ema, w, n, decay, BLOCK=BLOCK, num_warps=8)
    return ema
