"""bias_lrelu_dropout: out = keep_mask * leaky_relu(x + bias, 0.01) / (1 - p), p = 0.1, with a given
boolean mask, KernelBench-style modules that call Triton:
ModelNew(negative_slope, p)(x f32 [M, N], bias f32 [N], keep bool [M, N]) -> [M, N] f32."""
import torch
from progbuild import load_program

M, N = 16384, 4100  # 269 MB in, 67 MB of mask, 269 MB out; N is not a multiple of a block
SLOPE, P = 0.01, 0.1
TOL = {"rtol": 1e-6, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(M, N, device="cuda", generator=g)
    bias = 0.5 * torch.randn(N, device="cuda", generator=g)
    keep = torch.rand(M, N, device="cuda", generator=g) >= P
    return x, bias, keep


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda().eval()

    def fn(x, bias, keep):
        with torch.no_grad():
            return model(x, bias, keep)

    return fn


def reference(x, bias, keep):
    v = x.double() + bias.double()
    v = torch.where(v > 0, v, SLOPE * v)
    return torch.where(keep, v / (1 - P), torch.zeros_like(v))
