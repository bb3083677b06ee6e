"""Shared adapter code of set public68's LLMKernel families (kforecast's own code).

The run's evaluator (its evaluation files: "pair_key": "Model->ModelNew", "align_stats") builds
the problem's Model(*get_init_inputs()) and the candidate's ModelNew(*the same), copies the
Model's weights into ModelNew where the shapes agree, and calls both on get_inputs(). This module
does the same: the Model of the family's v0_reference.py built under a fixed seed (the same
weights in every process), each ModelNew parameter or buffer given the first not yet used Model
entry of the same shape (state_dict order), the inputs drawn as get_inputs draws them (uniform
[0, 1)) at the family's size with the harness's seed. Each version's KFORECAST
`kf_run(model, *inputs)` calls the module. Float64 reference: the Model in float64 on the same
inputs."""
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
        torch.manual_seed(68)
        model = mod.Model(*_init_args(mod)).cuda().eval()
        _MODELS[rp] = (model, mod)
    return _MODELS[rp]


def copy_by_shape(src, dst):
    """dst's state entries each take the first unused src entry of the same shape."""
    s_items = list(src.state_dict().items())
    used = set()
    new_state = {}
    for name, t in dst.state_dict().items():
        for i, (_, st) in enumerate(s_items):
            if i not in used and tuple(st.shape) == tuple(t.shape):
                used.add(i)
                new_state[name] = st.detach().clone().to(t.dtype)
                break
    dst.load_state_dict(new_state, strict=False)
    return dst


def adapter(bench_file, shape):
    def make_inputs(seed):
        g = torch.Generator(device="cuda").manual_seed(int(seed))
        return (torch.rand(shape, device="cuda", generator=g),)

    def build(path):
        model, rmod = ref_model(path)
        from progbuild import load_program
        if os.path.basename(path) == "v0_reference.py":
            mod = load_program(path)
            return lambda *inputs: mod.kf_run(model, *inputs)
        mod = load_program(path)
        torch.manual_seed(68)
        new = mod.ModelNew(*_init_args(rmod)).cuda().eval()
        copy_by_shape(model, new)
        return lambda *inputs: mod.kf_run(new, *inputs)

    def reference(*inputs):
        rp = _ref_path(bench_file)
        if ("f64", rp) not in _MODELS:
            import copy
            _MODELS[("f64", rp)] = copy.deepcopy(ref_model(bench_file)[0]).double()
        with torch.no_grad():
            return _MODELS[("f64", rp)](*[x.double() for x in inputs])

    return make_inputs, build, reference
