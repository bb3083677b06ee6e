"""Shared by the public81 adapters (kforecast's own code; pub81.py copies it into the set's root).

GPU MODE grayscale: every version's KFORECAST kf_run(rgb, output) makes the leaderboard's call
custom_kernel((rgb, output)). Inputs as the problem's generate_input draws them (rgb torch.rand
(S, S, 3) fp32, contiguous) with the output (S, S) fp32 filled with NaN here (generate_input leaves
it uninitialised): the harness clones the inputs for every run, so an element a version does not
write stays NaN and fails the check. Float64 reference: the weighted sum in float64.

`build(path)` imports the version with progbuild's load_program; the agentic loop's inline-CUDA
versions call load_inline lazily (`_get_module()`, on their first call, several under the same
extension name), so the build runs that first build inside progbuild's renaming of torch
extensions (a name and build folder of the version's own, cached by file content) before the
harness calls or times anything.
"""

import torch

import progbuild
from progbuild import load_program

TOL = {"rtol": 1e-4, "atol": 1e-5}
WEIGHTS = (0.2989, 0.5870, 0.1140)


def make_inputs(size, seed):
    gen = torch.Generator(device="cuda")
    gen.manual_seed(int(seed))
    rgb = torch.rand(size, size, 3, device="cuda", dtype=torch.float32, generator=gen).contiguous()
    output = torch.full((size, size), float("nan"), device="cuda", dtype=torch.float32)
    return (rgb, output)


def reference(rgb, output):
    w = torch.tensor(WEIGHTS, device=rgb.device, dtype=torch.float64)
    return (rgb.double() * w).sum(dim=-1)


def build(path):
    mod = load_program(path)
    if hasattr(mod, "_get_module"):
        with progbuild._unique_torch_extensions(progbuild.file_hash(path)):
            mod._get_module()
    return mod.kf_run
