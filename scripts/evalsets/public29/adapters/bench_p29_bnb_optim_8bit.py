"""Adapter of p29-bnb-optim-8bit (kforecast's own code): bitsandbytes' 8-bit blockwise Adam
step, each version's kf_optimizer_update called by keyword (optimizer_name="adam", g, p, state1,
state2, beta1 0.9, beta2 0.999, beta3 0, alpha 0, eps 1e-8, step 10, lr 1e-3, qmap1, qmap2,
absmax1, absmax2, weight_decay 0, gnorm_scale 1, skip_zeros False) on 2^24 float32 parameters
(blocks of 256, the module's own). Maps (ours): qmap1 evenly spaced signed in [-1, 1], qmap2
evenly spaced unsigned in [0, 1]. The step updates p, the states and their absmax in place (the
harness gives each check fresh inputs); compared: p and the new absmax1/absmax2 (the 8-bit
codes themselves can differ by one code where versions round differently). Float64 reference:
the Adam step on the dequantised states."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p29common as kf  # noqa: E402

N = 1 << 24
BLOCK = 256
B1, B2, EPS, STEP, LR = 0.9, 0.999, 1e-8, 10, 1e-3
TOL = {"rtol": 1e-3, "atol": 1e-5}


def make_inputs(seed):
    g = kf.gen(seed)
    p = 0.1 * torch.randn(N, device="cuda", generator=g)
    grad = 0.01 * torch.randn(N, device="cuda", generator=g)
    state1 = torch.randint(0, 256, (N,), device="cuda", dtype=torch.uint8, generator=g)
    state2 = torch.randint(0, 256, (N,), device="cuda", dtype=torch.uint8, generator=g)
    absmax1 = 1e-3 + 1e-2 * torch.rand(N // BLOCK, device="cuda", generator=g)
    absmax2 = 1e-6 + 1e-4 * torch.rand(N // BLOCK, device="cuda", generator=g)
    qmap1 = torch.linspace(-1.0, 1.0, 256, device="cuda")
    qmap2 = torch.linspace(0.0, 1.0, 256, device="cuda")
    return (p, grad, state1, state2, absmax1, absmax2, qmap1, qmap2)


def reference(p, grad, state1, state2, absmax1, absmax2, qmap1, qmap2):
    d = torch.float64
    s1 = qmap1.to(d)[state1.long()] * absmax1.to(d).repeat_interleave(BLOCK)
    s2 = qmap2.to(d)[state2.long()] * absmax2.to(d).repeat_interleave(BLOCK)
    gr = grad.to(d)
    m = B1 * s1 + (1 - B1) * gr
    v = B2 * s2 + (1 - B2) * gr * gr
    bc1, bc2 = 1 - B1 ** STEP, 1 - B2 ** STEP
    p_new = p.to(d) - LR / bc1 * m / (v.sqrt() / bc2 ** 0.5 + EPS)
    return (p_new, m.abs().reshape(-1, BLOCK).amax(1), v.abs().reshape(-1, BLOCK).amax(1))


def build(path):
    f = kf.load(path).kf_optimizer_update

    def fn(p, grad, state1, state2, absmax1, absmax2, qmap1, qmap2):
        with torch.no_grad():
            f(optimizer_name="adam", g=grad, p=p, state1=state1, state2=state2, beta1=B1, beta2=B2,
              beta3=0.0, alpha=0.0, eps=EPS, step=STEP, lr=LR, qmap1=qmap1, qmap2=qmap2,
              absmax1=absmax1, absmax2=absmax2, weight_decay=0.0, gnorm_scale=1.0, skip_zeros=False)
        return p, absmax1, absmax2
    return fn
