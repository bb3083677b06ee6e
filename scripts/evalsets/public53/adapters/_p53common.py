"""Shared by the public53 adapters (kforecast's own code; pub53.py copies it into the set's root).

`module(path)` imports a version's Python program as a fresh module (progbuild.load_program),
so equally named kernels of two versions live side by side. The versions' KFORECAST `kf_run`
entry points take torch tensors (or numba/cupy views of them) and launch on the default stream,
the stream the harness times.
"""

import numpy
import progbuild

# Environment shim (ours): the GPU machine's numba-cuda registers overloads for numpy functions
# that its numpy (2.5) no longer has (np.row_stack, ...), and fails at its first compile; the
# removed names are aliased to their replacements before numba.cuda loads.
for _old, _new in (("row_stack", "vstack"), ("trapz", "trapezoid"), ("in1d", "isin")):
    if not hasattr(numpy, _old) and hasattr(numpy, _new):
        setattr(numpy, _old, getattr(numpy, _new))


def module(path, numba_cuda=False):
    """The version's module; with `numba_cuda`, numba.cuda is imported first (some of the course's
    files `import numba` only and use numba.cuda.jit, as in its notebooks where numba.cuda was
    already imported)."""
    if numba_cuda:
        import numba.cuda  # noqa: F401
    return progbuild.load_program(path)


def numba_view(t):
    """A numba device array over tensor `t` (no copy)."""
    from numba import cuda

    return cuda.as_cuda_array(t)
