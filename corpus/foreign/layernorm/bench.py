"""layernorm: GPU MODE-style Triton programs, custom_kernel((x, weight, bias)) -> y (fp16)."""
import torch
from progbuild import load_program

ROWS, COLS = 16384, 4096
TOL = {"rtol": 1e-2, "atol": 1e-2}  # fp16 output


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = (torch.randn(ROWS, COLS, device="cuda", generator=g) * 2 + 0.5).half()
    w = (1 + 0.1 * torch.randn(COLS, device="cuda", generator=g)).half()
    b = (0.1 * torch.randn(COLS, device="cuda", generator=g)).half()
    return x, w, b


def build(path):
    prog = load_program(path)
    return lambda x, w, b: prog.custom_kernel((x, w, b))


def reference(x, w, b):
    return torch.nn.functional.layer_norm(x.double(), (x.shape[-1],), w.double(), b.double(), 1e-5)
