"""Shared adapter code of set public91 ("p91-" families; kforecast's own code, copied to the
set's root by the builder).

A version is either the family's reference (`v0_reference.py`: the source's PyTorch reference
module, verbatim, plus a KFORECAST `kf_run`) or one CUDA kernel file of the source (`vN_*.cu`:
the kernel file verbatim, plus a KFORECAST `PYBIND11_MODULE` binding its launcher as `kf_run`).
A kernel file is built as the source builds its extension (torch.utils.cpp_extension.load,
extra_cflags -O3, extra_cuda_cflags -O3 -lineinfo), alone, under a name and build folder of
its own keyed by its content. Every version is called as `kf_run(*inputs)`.

After a CUDA version is built it is run once under torch.profiler: a version none of whose
own `__global__` kernels ran fails (progbuild.check_own_kernels_run)."""
import importlib.util
import os
import sys

_MODULES = {}


def _load_module(path):
    from progbuild import file_hash
    name = "p91prog_" + file_hash(path)
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return sys.modules[name]


def _load_ext(path):
    from torch.utils.cpp_extension import load

    from progbuild import cache_dir, file_hash
    name = "p91_" + file_hash(path)
    if name not in _MODULES:
        _MODULES[name] = load(name=name, sources=[path], extra_cflags=["-O3"],
                              extra_cuda_cflags=["-O3", "-lineinfo"], with_cuda=True,
                              build_directory=cache_dir("ext", name),
                              verbose=bool(os.environ.get("EVALSET_VERBOSE")))
    return _MODULES[name]


def build(path, make_inputs):
    """The version's `kf_run`; a CUDA version must run one of its own kernels."""
    if path.endswith(".py"):
        return _load_module(path).kf_run
    from progbuild import check_own_kernels_run
    fn = _load_ext(path).kf_run
    check_own_kernels_run(path, fn, make_inputs(0))
    return fn
