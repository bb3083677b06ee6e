"""im2col_3x3: KernelBench-style load_inline modules; ModelNew()(x [N, C, H, W] f32) ->
[N, C*9, H*W], the im2col matrix of a 3x3 convolution with padding 1 and stride 1."""
import torch
import torch.nn.functional as F
from progbuild import load_program

N, C, H, W = 8, 64, 112, 112  # 25.7 MB in, 231 MB out
TOL = {"rtol": 0.0, "atol": 0.0}  # copies: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, C, H, W, device="cuda", generator=g),)


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda().eval()

    def fn(x):
        with torch.no_grad():
            return model(x)

    return fn


def reference(x):
    return F.unfold(x.double(), kernel_size=3, padding=1)
