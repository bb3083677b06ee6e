"""Helpers shared by the adapters of public set 16 (kforecast's own code, copied into the set
root by scripts/evalsets/public16/pub16.py). Builds go through the harness's progbuild
(nvcc_library, load_program, ptr), which measure_programs.py puts on sys.path.

- `inplace_u32(path, include)`: a CUDA program whose KFORECAST `kf_run(uint32_t*, uint32_t)`
  works in place on a buffer of 32-bit words (the scans and sorts), as fn(x) -> x.
- `load_model(path, init)`: imports a KernelBench-style module and builds its ModelNew (or
  Model) on the GPU, while every torch extension it builds with `load_inline`/`load`, at import
  or in its constructor, gets a name and build folder of its own. Those programs catch a
  failing build or call and fall back to eager torch, which is not the program under test: a
  program whose extension fails to build raises here, and `run_model` raises when a call did
  not go through the extension.
"""

import ctypes
import hashlib
import importlib.util
import os
import sys

from progbuild import cache_dir, nvcc_library, ptr

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")


def check(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: CUDA error {rc}")


def inplace_u32(path, include):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17", "-I", os.path.join(VENDOR, include)))
    run = lib.kf_run
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p, ctypes.c_uint32]

    def fn(x):
        check(run(ptr(x), x.numel()), path)
        return x

    return fn


def load_model(path, init):
    """A KernelBench-style program's ModelNew (else Model), built with `init` on the GPU."""
    import torch
    import torch.utils.cpp_extension as ext

    with open(path, "rb") as f:
        tag = hashlib.sha256(f.read() + os.path.abspath(path).encode()).hexdigest()[:16]
    failures, counter, loaded = [], [0], [0]
    saved = (ext.load_inline, ext.load)

    def wrap(orig):
        def inner(*args, **kwargs):
            name = kwargs.pop("name", None)
            if name is None and args:
                name, args = args[0], args[1:]
            name = f"{name}_{tag}"
            loaded[0] += 1
            kwargs["build_directory"] = cache_dir("ext", name)
            kwargs["verbose"] = bool(os.environ.get("EVALSET_VERBOSE"))
            try:
                built = orig(name, *args, **kwargs)
            except BaseException as e:
                failures.append(f"{name}: {str(e)[-1500:]}")
                raise
            return _Counted(built, counter)
        return inner

    modname = f"kfp16_{tag}"
    ext.load_inline, ext.load = wrap(saved[0]), wrap(saved[1])
    try:
        module = sys.modules.get(modname)
        if module is None:
            spec = importlib.util.spec_from_file_location(modname, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[modname] = module
        cls = getattr(module, "ModelNew", None) or module.Model
        torch.manual_seed(0)  # parameters drawn as KernelBench draws them for Model and ModelNew
        model = cls(*init).cuda().eval()
    finally:
        ext.load_inline, ext.load = saved
    if failures:
        raise RuntimeError("the program's CUDA extension did not build (it would fall back to torch): "
                           + failures[0])
    model.kf_extension_calls = counter
    model.kf_loaded = loaded[0] > 0
    return model


class _Counted:
    """A built extension module whose function calls are counted."""

    def __init__(self, module, counter):
        self._module, self._counter = module, counter

    def __getattr__(self, name):
        attr = getattr(self._module, name)
        if not callable(attr):
            return attr

        def call(*args, **kwargs):
            self._counter[0] += 1
            return attr(*args, **kwargs)
        return call


def run_model(model, *inputs):
    """model(*inputs) under no_grad; for a program that loaded a torch extension, an error if
    the call did not go through it (the program fell back to eager torch)."""
    import torch

    counter = model.kf_extension_calls
    before = counter[0]
    with torch.no_grad():
        out = model(*inputs)
    if model.kf_loaded and counter[0] == before:
        raise RuntimeError("the call did not go through the program's CUDA extension (it fell back to torch)")
    return out
