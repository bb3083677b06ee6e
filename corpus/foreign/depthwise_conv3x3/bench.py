"""depthwise_conv3x3: KernelBench-style modules, depthwise 3x3 conv, stride 1, padding 1, no bias,
x f32 [N, C, H, W]; the weights are made in ModelNew.__init__ from a fixed seed."""
import torch
from progbuild import load_program

N, C, H, W = 16, 64, 256, 256
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, C, H, W, device="cuda", generator=g),)


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda()

    def fn(x):
        with torch.no_grad():
            return model(x)

    return fn


def reference(x):
    w = torch.randn(x.shape[1], 1, 3, 3, generator=torch.Generator().manual_seed(0)) / 3.0
    return torch.nn.functional.conv2d(x.double(), w.to(x.device).double(), padding=1, groups=x.shape[1])
