"""The lists are flattened into one buffer each (torch.cat), updated by one kernel, and
the result copied back tensor by tensor."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ema_flat_kernel(E, P, n, decay, BLOCK: tl.constexpr):
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n
    tl.store(E + i, decay * tl.load(E + i, mask=ok) + (1.0 - decay) * tl.load(P + i, mask=ok), mask=ok)


class ModelNew(nn.Module):
    def __init__(self, decay):
        super().__init__()
        self.decay = decay

    def forward(self, ema_params, params):
        flat_e = torch.cat([e.reshape(-1) for e in ema_params])
        flat_p = torch.cat([p.reshape(-1) for p in params])
        n = flat_e.numel()
        BLOCK = 2048
        ema_flat_kernel[(triton.cdiv(n, BLOCK),)](flat_e, flat_p, n, self.decay, BLOCK=BLOCK, num_warps=8)
        off = 0
        for e in ema_params:
            k = e.numel()
            e.copy_(flat_e[off:off + k].view_as(e))
            off += k
        return ema_params


def get_inputs():
    shapes = [(8192, 1024)] + [(3072, 1024), (1024, 1024), (4096, 1024), (4096,), (1024, 4096),
                               (1024,), (1024,), (1024,), (1024,), (1024,)] * 6
    ema = [torch.randn(s, device="cuda") for s in shapes]
    return [ema, [e + 0.1 * torch.randn_like(e) for e in ema]]


def get_init_inputs():
    return [0.999]
