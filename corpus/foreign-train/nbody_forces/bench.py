"""nbody_forces: KernelBench-style load_inline modules; ModelNew(eps2)(bodies [n, 4] f32 with
x, y, z, mass) -> accelerations [n, 3]: a_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + eps2)^1.5.
Compute-bound: n^2 = 1.07e9 interactions."""
import torch
from progbuild import load_program

N = 32768
EPS2 = 0.01
# sums of 32768 terms in float32 in different orders (tiles, split sums with atomics, powf)
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    pos = torch.randn(N, 3, device="cuda", generator=g)
    mass = torch.rand(N, 1, device="cuda", generator=g) / N
    return (torch.cat([pos, mass], dim=1).contiguous(),)


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda().eval()

    def fn(bodies):
        with torch.no_grad():
            return model(bodies)

    return fn


def reference(bodies):
    b = bodies.double()
    p, m = b[:, :3], b[:, 3]
    out = torch.empty(b.size(0), 3, dtype=torch.float64, device=b.device)
    for s in range(0, b.size(0), 2048):
        d = p[None, :, :] - p[s:s + 2048, None, :]           # [rows, n, 3]
        r2 = (d * d).sum(-1) + EPS2
        w = m[None, :] * r2.rsqrt() ** 3
        out[s:s + 2048] = (d * w[..., None]).sum(1)
    return out
