"""Helpers shared by the adapters of evaluation set public36 (kforecast's own code, copied into
the set's root by scripts/evalsets/public36/pub36.py).

The PIKE families (KernelBench level-3 tasks): every version is a module with a `ModelNew`
(PIKE-B, earlier agents) or a `Model` (PIKE-O, and the task's own reference module) class. As
PIKE's evaluator (scripts/eval.py) does: init arguments from the task's get_init_inputs(),
torch.manual_seed(1) before constructing the model (on the CPU), eval mode, then on the GPU;
inputs from the task's get_inputs() (CPU randn, here seeded with the draw's seed) moved to the
GPU. The float64 reference is the task's Model built the same way (seed 1, so the same weights)
in float64.
- `kb_inputs(fam_dir, seed)`, `kb_build(path, fam_dir)`, `kb_reference(fam_dir, *xs)`, and
  `kb_entry(fam_dir)`, the three as an adapter's (make_inputs, reference, build); `TOL_KB`.
"""

import os

import torch

_CACHE = {}


def _pb():
    import progbuild
    return progbuild


def problem(fam_dir):
    """The task's own module (the family's v0_reference.py)."""
    return _pb().load_program(os.path.join(fam_dir, "v0_reference.py"))


def _construct(module, init, tag):
    pb = _pb()
    cls = getattr(module, "ModelNew", None) or module.Model
    torch.manual_seed(1)
    with pb._unique_torch_extensions(tag):
        return cls(*init)


def kb_inputs(fam_dir, seed):
    prob = problem(fam_dir)
    torch.manual_seed(int(seed) % (1 << 62))
    return tuple(x.cuda() if isinstance(x, torch.Tensor) else x for x in prob.get_inputs())


def kb_build(path, fam_dir):
    pb = _pb()
    module = pb.load_program(path)
    init = problem(fam_dir).get_init_inputs()
    model = _construct(module, init, pb.file_hash(path)).cuda().eval()

    def fn(*xs):
        with torch.no_grad():
            return model(*xs)
    return fn


def kb_reference(fam_dir, *xs):
    key = ("ref", fam_dir)
    if key not in _CACHE:
        pb = _pb()
        ref = os.path.join(fam_dir, "v0_reference.py")
        prob = problem(fam_dir)
        _CACHE[key] = _construct(prob, prob.get_init_inputs(), pb.file_hash(ref)).double().cuda().eval()
    model = _CACHE[key]
    with torch.no_grad():
        return model(*(x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in xs))


TOL_KB = {"rtol": 1e-2, "atol": 1e-2}


def kb_entry(fam_dir):
    """A PIKE family's adapter functions: (make_inputs, reference, build) for the family folder."""
    return (lambda seed: kb_inputs(fam_dir, seed),
            lambda *xs: kb_reference(fam_dir, *xs),
            lambda path: kb_build(path, fam_dir))
