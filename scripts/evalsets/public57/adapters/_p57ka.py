"""Shared adapter code of set public57's KernelAgent families (kforecast's own code).

The artifacts' benchmark.py builds the problem's Model (`Model(*get_init_inputs())`), moves it to
the GPU in bf16 when it has parameters, casts the inputs to bf16, and calls each kernel file's
`kernel_function` with the inputs and the Model's parameters that the signature names
(_bind_kernel): weight / bias tensors and kernel_size, stride, padding, dilation, output_padding,
groups, eps attributes of the Model's modules, first found wins, a tuple's first entry; all of them
as keywords where the signature takes *args / **kwargs; none where it names none. This module does
the same, with the Model's weights drawn under a fixed seed so that every process binds the same
ones, and the inputs at the family's size drawn with the harness's seed. A kernel version's
KFORECAST `kf_run(*inputs, **params)` calls its `kernel_function(*inputs, **params)`."""
import copy
import inspect
import os

import torch

DTYPE = torch.bfloat16
PARAM_KEYS = ("weight", "bias", "kernel_size", "stride", "padding", "dilation", "output_padding", "groups", "eps")
_MODELS = {}


def problem_path(path):
    return os.path.join(os.path.dirname(os.path.abspath(path)), "v0_problem.py")


def model_of(path):
    """(bf16 CUDA model, its module) of the family's problem.py beside `path`."""
    pp = problem_path(path)
    if pp not in _MODELS:
        from progbuild import load_program
        mod = load_program(pp)
        init = mod.get_init_inputs()
        if not isinstance(init, (tuple, list)):
            init = [init]
        torch.manual_seed(57)  # the same weights in every process
        model = mod.Model(*init).cuda().eval()
        if any(p.numel() > 0 for p in model.parameters()):
            model = model.to(DTYPE)
        _MODELS[pp] = (model, mod)
    return _MODELS[pp]


def model_params(model):
    params = {}
    for _, m in model.named_modules():
        for attr in ("weight", "bias"):
            val = getattr(m, attr, None)
            if isinstance(val, torch.Tensor):
                params.setdefault(attr, val)
        for attr in PARAM_KEYS[2:]:
            val = getattr(m, attr, None)
            if val is not None:
                params.setdefault(attr, val[0] if isinstance(val, (tuple, list)) else val)
    return params


def bf16_rand(g, shape):
    return torch.rand(shape, device="cuda", generator=g).to(DTYPE)


def build(path):
    model, _ = model_of(path)
    if os.path.basename(path) == "v0_problem.py":
        def fn(*inputs):
            with torch.no_grad():
                return model(*inputs)
        return fn
    from progbuild import load_program
    mod = load_program(path)
    sig = inspect.signature(mod.kernel_function)
    names = list(sig.parameters)
    params = model_params(model)
    has_var = any(p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
                  for p in sig.parameters.values())
    if not has_var and not set(PARAM_KEYS).intersection(names):
        return lambda *inputs: mod.kf_run(*inputs)
    if has_var and params:
        return lambda *inputs: mod.kf_run(*inputs, **params)

    def fn(*inputs):
        kw, pos = {}, 0
        for name in names:
            if name in params:
                kw[name] = params[name]
            elif pos < len(inputs):
                kw[name] = inputs[pos]
                pos += 1
        return mod.kf_run(**kw)
    return fn


def reference(path_hint, *inputs):
    """The Model in float64 on the same (bf16-rounded) inputs and weights."""
    model, _ = model_of(path_hint)
    m64 = copy.deepcopy(model).double()
    with torch.no_grad():
        return m64(*[x.double() if isinstance(x, torch.Tensor) else x for x in inputs])


def adapter(bench_file, shapes):
    """(make_inputs, build, reference) of a family whose inputs are bf16 uniform [0, 1) tensors of
    `shapes`, drawn in order from one generator seeded with the harness's seed."""
    problem = os.path.join(os.path.dirname(os.path.abspath(bench_file)), "v0_problem.py")

    def make_inputs(seed):
        g = torch.Generator(device="cuda").manual_seed(int(seed))
        return tuple(bf16_rand(g, s) for s in shapes)

    def ref(*inputs):
        return reference(problem, *inputs)
    return make_inputs, build, ref
