"""Helpers of the public4 "p4-" adapters (kforecast's own code, copied beside each adapter).

- `nvcc(path, vendor_dir)`: compiles a .cu program (kernel + the source's host code + a
  KFORECAST `kf_run` entry) with progbuild.nvcc_library, the source's vendored include
  folder on the include path.
- `load_attorch(path)`: imports an attorch layer module (verbatim, with relative imports
  `from .softmax_kernels import ...`) as a submodule of the vendored attorch package.
- `load_py(path)`: imports a plain Python program (progbuild.load_program).
"""
import hashlib
import importlib
import importlib.util
import os
import sys

from progbuild import load_program, nvcc_library, ptr  # noqa: F401  (the harness puts progbuild on sys.path)

SET_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENDOR = os.path.join(SET_ROOT, "_vendor", "pub4")


def nvcc(path, vendor_sub):
    inc = os.path.join(VENDOR, "tongkaio", vendor_sub)
    return nvcc_library(path, flags=("-O3", "-std=c++17", "-I", inc))


def load_attorch(path):
    return load_in_package(path, VENDOR, "attorch")


def load_in_package(path, root, package):
    """Imports the module at `path` as a submodule of the vendored `package` (under `root`),
    so the module's relative imports resolve to the vendored package."""
    if root not in sys.path:
        sys.path.insert(0, root)
    importlib.import_module(package)
    base = os.path.splitext(os.path.basename(path))[0]
    name = package + ".kfv_" + base + "_" + hashlib.sha1(os.path.abspath(path).encode()).hexdigest()[:10]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_py(path):
    return load_program(path)


def load_ext(path, includes=(), cuda_cflags=()):
    """Builds a torch-extension .cu file (its PYBIND11_MODULE inside) with
    torch.utils.cpp_extension.load, under a name and folder of its own (keyed by content)."""
    import torch
    from torch.utils.cpp_extension import load

    major, minor = torch.cuda.get_device_capability()
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", f"{major}.{minor}")
    with open(path, "rb") as f:
        tag = hashlib.sha256(f.read() + repr(cuda_cflags).encode()).hexdigest()[:12]
    name = "p4_" + os.path.splitext(os.path.basename(path))[0] + "_" + tag
    bdir = os.path.join(os.environ.get("EVALSET_CACHE", os.path.expanduser("~/.cache/kforecast-evalsets")),
                        "p4-ext", name)
    os.makedirs(bdir, exist_ok=True)
    return load(name, sources=[path], extra_include_paths=list(includes), extra_cuda_cflags=list(cuda_cflags),
                build_directory=bdir, verbose=False)


def check(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: CUDA error {rc}")
