"""max_pool2d_3x3: 3x3 max pooling, stride 2, padding 1, NCHW float32, KernelBench-style
load_inline modules: ModelNew(kernel_size, stride, padding)(x) -> y."""
import torch
from progbuild import load_program

N, C, H, W = 16, 64, 256, 256  # 256 MB in, 64 MB out
TOL = {"rtol": 0.0, "atol": 0.0}  # a max: exact


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
    return torch.nn.functional.max_pool2d(x.double(), kernel_size=3, stride=2, padding=1)
