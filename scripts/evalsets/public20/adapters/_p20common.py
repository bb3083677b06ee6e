"""Helpers shared by the adapters of evaluation set public20 (kforecast's own code, copied
into the set's root by scripts/evalsets/public20/pub20.py).

- `load_extension(path)`: builds a torch-extension `.cu` version with
  `torch.utils.cpp_extension.load`, together with the backward file its family's
  `companions.json` names for it (None: alone), under a name and build folder unique to the
  sources' content (cached; a second process building the same one waits for the first);
- `load_module(path)`: imports a Python program (CuPy, Triton) as a fresh module;
- `entry(mod, names)`: the first of `names` the module binds; `first(out)`: a vector of
  outputs gives its first.
"""

import hashlib
import importlib.util
import json
import os
import re
import sys

SET_ROOT = os.path.dirname(os.path.abspath(__file__))


def cache_dir(*parts):
    root = os.environ.get("EVALSET_CACHE") or os.path.expanduser("~/.cache/kforecast-evalsets")
    path = os.path.join(root, *parts)
    os.makedirs(path, exist_ok=True)
    return path


def companion(path):
    with open(os.path.join(os.path.dirname(path), "companions.json"), encoding="utf-8") as f:
        comp = json.load(f).get(os.path.basename(path))
    return os.path.join(SET_ROOT, comp) if comp else None


def load_extension(path):
    from torch.utils.cpp_extension import load

    sources = [path]
    comp = companion(path)
    if comp:
        sources.append(comp)
    h = hashlib.sha256()
    for s in sources:
        with open(s, "rb") as f:
            h.update(f.read())
    stem = re.sub(r"\W", "_", os.path.basename(os.path.dirname(path)) + "_" + os.path.basename(path).split(".")[0])
    name = f"{stem}_{h.hexdigest()[:12]}"
    return load(name=name, sources=sources, extra_cuda_cflags=["-O3"], extra_cflags=["-O3"],
                build_directory=cache_dir("ext", name), verbose=bool(os.environ.get("EVALSET_VERBOSE")))


def load_module(path):
    name = "p20prog_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def entry(mod, names):
    for n in names:
        f = getattr(mod, n, None)
        if f is not None:
            return f
    raise AttributeError(f"the module binds none of {names}")


def first(out):
    return out[0] if isinstance(out, (tuple, list)) else out


def kernelbench_model(path, init=None):
    """A KernelBench-style module: imported with progbuild.load_program (every torch extension
    it builds gets a name and build folder of its own), then ModelNew built with
    get_init_inputs() (or `init` where the module has none) inside the same renaming, since
    some samples call load_inline in ModelNew.__init__."""
    import progbuild

    module = progbuild.load_program(path)
    args = module.get_init_inputs() if hasattr(module, "get_init_inputs") else list(init or [])
    with progbuild._unique_torch_extensions(progbuild.file_hash(path)):
        model = module.ModelNew(*args)
    return model.cuda().eval()
