"""Helpers of the pubmix ("pm-") families' adapters (kforecast's own code, copied into the
set as _vendor/pubmix/pm_common.py by scripts/evalsets/public2/pubmix.py)."""

import os
import re

import torch

# The flags of LeetCUDA's own loaders (kernels/<op>/<op>.py: torch.utils.cpp_extension.load)
LEETCUDA_CUDA_FLAGS = [
    "-O3",
    "-U__CUDA_NO_HALF_OPERATORS__",
    "-U__CUDA_NO_HALF_CONVERSIONS__",
    "-U__CUDA_NO_HALF2_OPERATORS__",
    "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
    "--expt-relaxed-constexpr",
    "--expt-extended-lambda",
    "--use_fast_math",
]


def load_leetcuda(path):
    """Builds the LeetCUDA program at `path` (one variant, one m.def) as the source does,
    with torch.utils.cpp_extension.load, in a build folder of its own (cached by content),
    and returns its one op."""
    from progbuild import cache_dir, file_hash
    from torch.utils.cpp_extension import load

    tag = file_hash(path)
    name = "pm_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0]) + "_" + tag
    mod = load(name=name, sources=[path], extra_cuda_cflags=LEETCUDA_CUDA_FLAGS, extra_cflags=["-std=c++17"],
               build_directory=cache_dir("ext", name), verbose=bool(os.environ.get("EVALSET_VERBOSE")))
    ops = [n for n in dir(mod) if not n.startswith("_") and callable(getattr(mod, n))]
    if len(ops) != 1:
        raise RuntimeError(f"{path}: expected one op in the extension, found {ops}")
    return getattr(mod, ops[0])


def load_python(path):
    from progbuild import load_program

    return load_program(path)


def dtype_of(path):
    """The element type a LeetCUDA variant reads, from its op name."""
    base = os.path.basename(path)
    if "_bf16" in base:
        return torch.bfloat16
    if "_f16" in base:
        return torch.float16
    return torch.float32


def gen(seed):
    return torch.Generator(device="cuda").manual_seed(seed)


def pick(dtype, by_dtype):
    """The input tensor of the version's type out of a {dtype: tensor} choice."""
    return by_dtype[dtype]


def half_pair(shape, seed, scale=1.0):
    """One normal draw stored as half, and the same values as float32 (f32 and f16
    versions of a family read the same numbers)."""
    x = (scale * torch.randn(*shape, device="cuda", generator=gen(seed))).half()
    return (x.float(), x)


def build_out_of_place(path, *scalars):
    """fn(x32, x16) running the LeetCUDA op `op(x, y, *scalars)` on the input of its type,
    y a fresh tensor like x."""
    op = load_leetcuda(path)
    half = dtype_of(path) == torch.float16

    def fn(x32, x16):
        x = x16 if half else x32
        y = torch.empty_like(x)
        op(x, y, *scalars)
        return y
    return fn
