"""Shared adapter code of set public78's Improved_Kernel_Bench families (kforecast's own code).

Each version is a KernelBench-style program: the reference (the KernelBench problem file the
repository keeps) defines `Model`, a candidate defines `ModelNew` (CUDA in load_inline strings,
built at import). The module's class is built once with the problem's get_init_inputs() (from
the family's v0_reference.py) under progbuild's renaming of torch extensions, on the GPU, in
eval mode. Each version's KFORECAST `kf_run(model, *inputs)` calls it. Inputs are drawn as
get_inputs draws them (torch.randn), at the family's size (fixed here), with the harness's seed.
Float64 reference: the reference Model in float64 on the same inputs (argmax: int64 indices).

A candidate is run once at build time under torch.profiler: if none of the kernels that ran is
one of the file's `__global__` functions, the version fails ("fell back to torch")."""
from progbuild import kernelbench_candidates


def adapter(bench_file, shapes):
    return kernelbench_candidates(bench_file, shapes, seed=78)
