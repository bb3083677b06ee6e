"""1-D convolution along the rows of a matrix (same padding), one thread per output,
taps and inputs read straight from global memory."""
import cupy as cp
import numpy as np

_SRC = r"""
extern "C" __global__
void conv1d_naive(const float* __restrict__ x, const float* __restrict__ w,
                  float* __restrict__ y, int n, int taps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    if (i >= n) return;
    const float* xr = x + (size_t)row * n;
    int r = taps / 2;
    float acc = 0.f;
    for (int k = 0; k < taps; ++k) {
        int j = i + k - r;
        if (j >= 0 && j < n) acc += w[k] * xr[j];
    }
    y[(size_t)row * n + i] = acc;
}
"""

_mod = cp.RawModule(code=_SRC)
_kernel = _mod.get_function("conv1d_naive")
_THREADS = 256


def conv1d(x, w):
    assert x.dtype == cp.float32 and w.dtype == cp.float32 and x.ndim == 2
    x = cp.ascontiguousarray(x)
    rows, n = x.shape
    taps = w.size
    y = cp.empty_like(x)
    grid = ((n + _THREADS - 1) // _THREADS, rows)
    _kernel(grid, (_THREADS,), (x, w, y, np.int32(n), np.int32(taps)))
    return y
