"""masked_mean_pool: mean over the sequence of the unmasked positions, GPU MODE-style programs:
custom_kernel((x f32 [B, L, D], mask f32 [B, L] of 0/1, at least one 1 per row)) -> [B, D] f32;
the reference version is a torch `ref_kernel(data)`."""
import torch
from progbuild import load_program

B, L, D = 64, 2050, 1000  # 525 MB of x; L and D are not multiples of any block
TOL = {"rtol": 1e-4, "atol": 1e-5}  # sums of ~1000 terms in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(B, L, D, device="cuda", generator=g)
    mask = (torch.rand(B, L, device="cuda", generator=g) < 0.6).float()
    mask[:, 0] = 1.0
    return x, mask


def build(path):
    prog = load_program(path)
    kernel = getattr(prog, "custom_kernel", None) or prog.ref_kernel
    return lambda x, mask: kernel((x, mask))


def reference(x, mask):
    m = mask.double()
    return (x.double() * m[..., None]).sum(1) / m.sum(1, keepdim=True)
