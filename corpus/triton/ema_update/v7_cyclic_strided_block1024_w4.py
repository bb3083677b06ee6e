"""EMA of weights in place with a cyclic (transposed) mapping: program p updates elements
p, p + P, p + 2P, ... (P = number of programs), so neighbouring lanes are P floats apart
and every access is uncoalesced; 1024 elements per program, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = ema_update(ema, w, decay); ema: f32[67108864] randn; w: f32[67108864] randn; decay = 0.999; outputs = ema; rtol = 1e-5; atol = 1e-5
@triton.jit
def ema_update_kernel(ema_ptr, w_ptr, n, decay, BLOCK: tl.constexpr):
    nprog = tl.num_programs(0)
    offs = tl.program_id(0) + tl.arange(0, BLOCK) * nprog
    mask = offs < n
    e = tl.load(ema_ptr + offs, mask=mask)
    x = tl.load(w_ptr + offs, mask=mask)
    tl.store(ema_ptr + offs, decay * e + (1.0 - decay) * x, mask=mask)


def ema_update(ema: torch.Tensor, w: torch.Tensor, decay: float) -> torch.Tensor:
    n = ema.numel()
    BLOCK = 1024
    ema_update_kernel[(triton.cdiv(n, BLOCK),)](ema, w, n, decay, BLOCK=BLOCK, num_warps=4)
    return ema
