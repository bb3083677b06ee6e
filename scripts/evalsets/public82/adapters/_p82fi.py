"""Shared adapter code of set public82's flashinfer-bench kernel-agent families (kforecast's own code).

Each version is a KernelBench-style program: the reference (the KernelBench problem file the
repository keeps) defines `Model`, a candidate defines `ModelNew` (CUDA in load_inline strings,
built at import). The module's class is built once with the problem's get_init_inputs() (from
the family's v0_reference.py) under progbuild's renaming of torch extensions, on the GPU, in
eval mode. Each version's KFORECAST `kf_run(model, *inputs)` calls it. Inputs are drawn as
get_inputs draws them (torch.randn), at the family's size (fixed here), with the harness's seed.
Float64 reference: the reference Model in float64 on the same inputs.

A candidate is run once at build time under torch.profiler: if none of the kernels that ran is
one of the file's `__global__` functions, the version fails ("fell back to torch")."""
import copy
import os

import torch

_MODELS = {}


def _ref_path(path):
    return os.path.join(os.path.dirname(os.path.abspath(path)), "v0_reference.py")


def _init_args(mod):
    init = mod.get_init_inputs()
    return list(init) if isinstance(init, (tuple, list)) else [init]


def ref_model(path):
    rp = _ref_path(path)
    if rp not in _MODELS:
        from progbuild import load_program
        mod = load_program(rp)
        torch.manual_seed(82)
        model = mod.Model(*_init_args(mod)).cuda().eval()
        _MODELS[rp] = (model, mod)
    return _MODELS[rp]


def adapter(bench_file, shapes):
    def make_inputs(seed):
        g = torch.Generator(device="cuda").manual_seed(int(seed))
        return tuple(torch.randn(s, device="cuda", generator=g) for s in shapes)

    def build(path):
        model, rmod = ref_model(path)
        from progbuild import _unique_torch_extensions, check_own_kernels_run, file_hash, load_program
        mod = load_program(path)
        if os.path.basename(path) == "v0_reference.py":
            return lambda *inputs: mod.kf_run(model, *inputs)
        cls = mod.ModelNew
        torch.manual_seed(82)
        with _unique_torch_extensions(file_hash(path)):
            new = cls(*_init_args(rmod)).cuda().eval()
        fn = lambda *inputs: mod.kf_run(new, *inputs)  # noqa: E731
        check_own_kernels_run(path, fn, make_inputs(0))
        return fn

    def reference(*inputs):
        rp = _ref_path(bench_file)
        if ("f64", rp) not in _MODELS:
            _MODELS[("f64", rp)] = copy.deepcopy(ref_model(bench_file)[0]).double()
        with torch.no_grad():
            return _MODELS[("f64", rp)](*[x.double() for x in inputs])

    return make_inputs, build, reference
