"""Adapter of p10-infatoshi-polynomial (kforecast's own code).

polynomial_activation.py imports the extension `polynomial_cuda` (setup.py builds it from
polynomial_cuda.cu): the adapter builds that file beside it and registers it under that
name before importing the module, then runs PolynomialActivation('pytorch'). The .cu
version is the extension itself, called as polynomial_cuda.polynomial_activation(x)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

N = 1 << 26  # the source's 1e6 raised to 2^26 elements
HERE = os.path.dirname(os.path.abspath(__file__))


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g),)


def extension(cu):
    return c.torch_extension(cu, [cu])


def build(path):
    if path.endswith(".cu"):
        ext = extension(path)
        return lambda x: ext.polynomial_activation(x)
    sys.modules["polynomial_cuda"] = extension(os.path.join(os.path.dirname(path), "polynomial_cuda.cu"))
    module = c.load_program(path)
    model = module.PolynomialActivation(implementation="pytorch").cuda()

    def fn(x):
        with torch.no_grad():
            return model(x)

    return fn


def reference(x):
    x = x.double()
    return x ** 2 + x + 1
