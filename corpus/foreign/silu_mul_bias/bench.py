"""silu_mul_bias: KernelBench-style modules, y = silu(x) * scale + bias (per column), float32."""
import torch
from progbuild import load_program

ROWS, COLS = 8192, 8192
SCALE = 0.75
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(ROWS, COLS, device="cuda", generator=g) * 3,)


def _bias(cols):
    return torch.randn(cols, generator=torch.Generator().manual_seed(1234)) * 0.1


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda()

    def fn(x):
        with torch.no_grad():
            return model(x)

    return fn


def reference(x):
    b = _bias(x.shape[1]).to(x.device).double()
    x = x.double()
    return x * torch.sigmoid(x) * SCALE + b
