"""Building helpers for evaluation-set adapters (`SET/<family>/bench.py`).

`measure_programs.py` puts this folder on `sys.path`, so an adapter can write
`from progbuild import load_program, kernelbench_model, nvcc_library, ptr`
(and `check_own_kernels_run`, which fails a candidate that silently runs torch instead).

Every build is cached under `$EVALSET_CACHE` (default `~/.cache/kforecast-evalsets`),
keyed by the content of the file it builds, so the harness's parallel build workers
do the slow compile once and the timing process only loads the result.
"""

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import subprocess
import sys


def cache_dir(*parts):
    root = os.environ.get("EVALSET_CACHE") or os.path.expanduser("~/.cache/kforecast-evalsets")
    path = os.path.join(root, *parts)
    os.makedirs(path, exist_ok=True)
    return path


def file_hash(path, extra=""):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    h.update(extra.encode())
    h.update(os.path.abspath(path).encode())
    return h.hexdigest()[:16]


@contextlib.contextmanager
def file_lock(path):
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextlib.contextmanager
def _unique_torch_extensions(tag):
    """Makes every torch extension the program builds get a name and build folder
    of its own (two versions of a KernelBench module often both say name="...")."""
    import torch.utils.cpp_extension as ext

    saved = (ext.load_inline, ext.load)

    def fix(kwargs, args):
        name = kwargs.pop("name", None)
        if name is None and args:
            name, args = args[0], args[1:]
        name = f"{name}_{tag}"
        kwargs.setdefault("build_directory", cache_dir("ext", name))
        kwargs["verbose"] = bool(os.environ.get("EVALSET_VERBOSE"))
        return name, args, kwargs

    def load_inline(*args, **kwargs):
        name, args, kwargs = fix(kwargs, args)
        return saved[0](name, *args, **kwargs)

    def load(*args, **kwargs):
        name, args, kwargs = fix(kwargs, args)
        return saved[1](name, *args, **kwargs)

    ext.load_inline, ext.load = load_inline, load
    try:
        yield
    finally:
        ext.load_inline, ext.load = saved


def load_program(path):
    """Imports the Python program at `path` as a fresh module (its own name, so two
    versions that share a file name or an extension name can live in one process)."""
    tag = file_hash(path)
    name = "evalprog_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_") + "_" + tag
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        with _unique_torch_extensions(tag):
            spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def kernelbench_model(path, init=()):
    """A KernelBench-style `ModelNew` module: the program imported with `load_program`, the
    model built with `init` inside the same renaming of torch extensions (some samples call
    load_inline in `__init__`), on the GPU, in eval mode."""
    module = load_program(path)
    with _unique_torch_extensions(file_hash(path)):
        model = module.ModelNew(*init)
    return model.cuda().eval()


def _arch():
    import torch

    major, minor = torch.cuda.get_device_capability()
    return f"sm_{major}{minor}"


def nvcc_library(path, flags=("-O3",)):
    """Compiles the CUDA file at `path` (host code included) into a shared library
    and loads it with ctypes. Its `extern "C"` functions are what the adapter calls."""
    import ctypes

    flags = list(flags)
    tag = file_hash(path, " ".join(flags) + _arch())
    out = os.path.join(cache_dir("nvcc"), f"{os.path.basename(path)}.{tag}.so")
    with file_lock(out):
        if not os.path.exists(out):
            nvcc = os.environ.get("NVCC", "nvcc")
            cmd = [nvcc, *flags, f"-arch={_arch()}", "-shared", "-Xcompiler", "-fPIC",
                   "-o", out + ".tmp", path]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"nvcc failed on {path}:\n{r.stderr[-3000:]}")
            os.replace(out + ".tmp", out)
    return ctypes.CDLL(out)


def ptr(tensor):
    """A tensor's device address as a ctypes argument."""
    import ctypes

    return ctypes.c_void_p(tensor.data_ptr())


def stream():
    """The current torch stream's handle as a ctypes argument (for launchers that take one)."""
    import ctypes

    import torch

    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def global_kernel_names(path):
    """The names of the `__global__` functions the file at `path` defines (in CUDA strings too)."""
    import re
    with open(path, encoding="utf-8") as f:
        text = f.read()
    names = set()
    for m in re.finditer(r"__global__\s+([^;{]*?)\(", text):
        words = re.findall(r"[A-Za-z_]\w*", m.group(1))
        if words:
            names.add(words[-1])
    return names


def check_own_kernels_run(path, fn, inputs):
    """Raises where one call `fn(*inputs)` runs none of the file's own `__global__` kernels
    (a `load_inline` candidate whose build failed and that fell back to torch)."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    names = global_kernel_names(path)
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*inputs)
        torch.cuda.synchronize()
    ran = {e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA}
    if not any(n in k for n in names for k in ran):
        raise RuntimeError(f"fell back to torch: none of its __global__ kernels {sorted(names)} "
                           f"ran (ran: {sorted(ran)[:6]})")


_KB_MODELS = {}


def kernelbench_candidates(bench_file, shapes, seed):
    """make_inputs, build and reference of a family of KernelBench programs: the reference
    (the family's v0_reference.py) defines `Model`, each candidate `ModelNew` (CUDA in
    load_inline strings). Each class is built with the problem's get_init_inputs() under
    torch.manual_seed(seed) (the candidate's torch extensions renamed per file), on the GPU, in
    eval mode, and each version's KFORECAST `kf_run(model, *inputs)` calls it. Inputs are
    torch.randn of `shapes` from the harness's seed; a candidate none of whose own `__global__`
    kernels runs fails (`check_own_kernels_run`); the reference is the Model in float64."""
    import copy

    import torch

    def ref_path(path):
        return os.path.join(os.path.dirname(os.path.abspath(path)), "v0_reference.py")

    def init_args(mod):
        init = mod.get_init_inputs()
        return list(init) if isinstance(init, (tuple, list)) else [init]

    def ref_model(path):
        rp = ref_path(path)
        if rp not in _KB_MODELS:
            mod = load_program(rp)
            torch.manual_seed(seed)
            _KB_MODELS[rp] = (mod.Model(*init_args(mod)).cuda().eval(), mod)
        return _KB_MODELS[rp]

    def make_inputs(s):
        g = torch.Generator(device="cuda").manual_seed(int(s))
        return tuple(torch.randn(shape, device="cuda", generator=g) for shape in shapes)

    def build(path):
        model, rmod = ref_model(path)
        mod = load_program(path)
        if os.path.basename(path) == "v0_reference.py":
            return lambda *inputs: mod.kf_run(model, *inputs)
        torch.manual_seed(seed)
        with _unique_torch_extensions(file_hash(path)):
            new = mod.ModelNew(*init_args(rmod)).cuda().eval()
        fn = lambda *inputs: mod.kf_run(new, *inputs)  # noqa: E731
        check_own_kernels_run(path, fn, make_inputs(0))
        return fn

    def reference(*inputs):
        key = ("f64", ref_path(bench_file))
        if key not in _KB_MODELS:
            _KB_MODELS[key] = copy.deepcopy(ref_model(bench_file)[0]).double()
        with torch.no_grad():
            return _KB_MODELS[key](*[x.double() for x in inputs])

    return make_inputs, build, reference
