"""Adapter of p56-mt-biaslayer (kforecast's own code): KernelBook BiasLayer(channels=4), net + bias
with bias (4, 1, 1) as the module initialises it (zeros), net 64 x 4 x 512 x 512 fp32 uniform [0, 1)
as the sample's get_inputs draws it (enlarged from 4 x 4 x 4 x 4). The reference version runs the
module; a turn's version runs its KFORECAST kf_run(net, bias) (triton_kernel_wrapper(net, bias), as
the loop's evaluator passes the module's bias). Float64 reference: net + bias in float64."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SHAPE = (64, 4, 512, 512)
CHANNELS = 4
TOL = {"rtol": 1e-6, "atol": 1e-6}


def _bias():
    return torch.zeros(CHANNELS, 1, 1, device="cuda")  # BiasLayer.__init__: torch.zeros(channels, 1, 1)


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    return (torch.rand(SHAPE, device="cuda", generator=g),)


def reference(net):
    return net.double() + _bias().double()


def build(path):
    from progbuild import load_program
    mod = load_program(path)
    if hasattr(mod, "BiasLayer"):
        model = mod.BiasLayer(channels=CHANNELS).cuda().eval()

        def fn(net):
            with torch.no_grad():
                return model(net)
        return fn
    bias = _bias()

    def fn(net):
        return mod.kf_run(net, bias)
    return fn
