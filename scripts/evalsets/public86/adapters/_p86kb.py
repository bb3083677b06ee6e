"""Shared adapter code of set public86's families (kforecast's own code).

Each family is one KernelBench level 1 problem of SSnTi1111/KernelBench_main: the reference
(v0_reference.py) is the problem file with its torch `Model`, each candidate a round of the
fork's LLM agent loop (the round's CUDA source in a string, built with load_inline at import,
under progbuild's renaming of torch extensions). Every version has a KFORECAST `kf_run(x)`.
Inputs are drawn as the problem's get_inputs draws them (torch.rand, uniform [0, 1)) at the
family's size, from the harness's seed, on the GPU. A candidate is run once at build time under
torch.profiler and fails unless one of the file's own `__global__` kernels ran. Float64
reference: the problem's Model on the inputs in float64."""
import os

import torch

_MODS = {}


def _ref_path(path):
    return os.path.join(os.path.dirname(os.path.abspath(path)), "v0_reference.py")


def adapter(bench_file, shape):
    def make_inputs(seed):
        g = torch.Generator(device="cuda").manual_seed(int(seed))
        return (torch.rand(shape, device="cuda", generator=g),)

    def build(path):
        from progbuild import check_own_kernels_run, load_program
        mod = load_program(path)
        fn = mod.kf_run
        if os.path.basename(path) != "v0_reference.py":
            check_own_kernels_run(path, fn, make_inputs(0))
        return fn

    def reference(*inputs):
        rp = _ref_path(bench_file)
        if rp not in _MODS:
            from progbuild import load_program
            mod = load_program(rp)
            init = mod.get_init_inputs()
            init = list(init) if isinstance(init, (tuple, list)) else [init]
            _MODS[rp] = mod.Model(*init).cuda().eval().double()
        with torch.no_grad():
            return _MODS[rp](*[x.double() for x in inputs])

    return make_inputs, build, reference
