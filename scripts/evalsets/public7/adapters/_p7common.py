"""Helpers shared by set (b7)'s adapters (kforecast's own code, copied into the set).

A version is either the reference (`torch_reference.py`: the source's torch baseline) or
a torch extension: `<version>.cu` (torch_ext.cu with main.cu inlined) and its binding
`<version>.bind.cpp`, built as the source's benchmark.py builds them (torch's `load`,
extra_cuda_cflags -O2), under a name and build folder of its own keyed by content.
main.cu includes cuBLAS and, in some problems, cuDNN headers for its host benchmark, so
the build links both (cuDNN from the wheel torch ships with when the toolkit has none).
"""

import hashlib
import importlib.util
import os
import sys


def _cache(*parts):
    root = os.environ.get("EVALSET_CACHE") or os.path.expanduser("~/.cache/kforecast-evalsets")
    path = os.path.join(root, *parts)
    os.makedirs(path, exist_ok=True)
    return path


def _cudnn_flags():
    inc, ld = [], []
    try:
        import nvidia.cudnn as nc  # the wheel torch depends on

        base = list(nc.__path__)[0]
        if os.path.isdir(os.path.join(base, "include")):
            inc.append(os.path.join(base, "include"))
        lib = os.path.join(base, "lib")
        if os.path.isdir(lib):
            names = sorted(n for n in os.listdir(lib) if n.startswith("libcudnn.so"))
            if names:
                ld += [f"-L{lib}", f"-l:{names[0]}", f"-Wl,-rpath,{lib}"]
    except ImportError:
        ld.append("-lcudnn")
    return inc, ld


def load_ext(path):
    """Builds the version at `path` (+ its .bind.cpp) and returns the extension module."""
    from torch.utils.cpp_extension import load

    bind = path[:-len(".cu")] + ".bind.cpp"
    h = hashlib.sha256()
    for p in (path, bind):
        with open(p, "rb") as f:
            h.update(f.read())
    name = "p7_" + h.hexdigest()[:16]
    inc, ld = _cudnn_flags()
    return load(name=name, sources=[bind, path], extra_cuda_cflags=["-O2"], extra_include_paths=inc,
                extra_ldflags=["-lcublas", *ld], build_directory=_cache("ext", name),
                verbose=bool(os.environ.get("EVALSET_VERBOSE")))


def load_module(path):
    name = "p7prog_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def build(path, ref_fn, ext_fn):
    """The reference program's torch function, or the extension's launcher."""
    if path.endswith(".py"):
        return getattr(load_module(path), ref_fn)
    return getattr(load_ext(path), ext_fn)
