"""adam_update: one Adam step, out of place, KernelBench-style load_inline modules.

ModelNew(lr, beta1, beta2, eps, step)(param, grad, exp_avg, exp_avg_sq) -> (param', exp_avg', exp_avg_sq').
The inputs are never written, so the first call's outputs are the ones checked."""
import torch
from progbuild import load_program

N = (1 << 24) + 4 * 37  # 16.8M parameters: 4 x 64 MB read, 3 x 64 MB written; not a multiple of 256
TOL = {"rtol": 1e-4, "atol": 1e-5}  # float32 sqrt and division against float64
LR, BETA1, BETA2, EPS, STEP = 1e-3, 0.9, 0.999, 1e-8, 10


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    param = torch.randn(N, device="cuda", generator=g)
    grad = 0.1 * torch.randn(N, device="cuda", generator=g)
    exp_avg = 0.05 * torch.randn(N, device="cuda", generator=g)
    exp_avg_sq = (0.05 * torch.randn(N, device="cuda", generator=g)) ** 2
    return param, grad, exp_avg, exp_avg_sq


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda().eval()

    def fn(param, grad, exp_avg, exp_avg_sq):
        with torch.no_grad():
            return tuple(model(param, grad, exp_avg, exp_avg_sq))

    return fn


def reference(param, grad, exp_avg, exp_avg_sq):
    p, g, m, v = (t.double() for t in (param, grad, exp_avg, exp_avg_sq))
    m2 = BETA1 * m + (1 - BETA1) * g
    v2 = BETA2 * v + (1 - BETA2) * g * g
    bc1, bc2 = 1 - BETA1 ** STEP, 1 - BETA2 ** STEP
    p2 = p - LR * (m2 / bc1) / ((v2 / bc2).sqrt() + EPS)
    return p2, m2, v2
