"""1-D row convolution with a shared-memory tile: each block stages its 256 inputs plus a
halo of taps-1 values (and the taps) in shared memory, then every thread reads from there."""
import cupy as cp
import numpy as np

_SRC = r"""
extern "C" __global__
void conv1d_smem_halo_v2(const float* __restrict__ x, const float* __restrict__ w,
                         float* __restrict__ y, int n, int taps)
{
    extern __shared__ float smem[];
    float* s_w = smem;            // taps
    float* s_x = smem + taps;     // blockDim.x + taps - 1
    int r = taps / 2;
    int row = blockIdx.y;
    int base = blockIdx.x * blockDim.x;           // first output of the block
    const float* xr = x + (size_t)row * n;

    for (int k = threadIdx.x; k < taps; k += blockDim.x) s_w[k] = w[k];
    int span = blockDim.x + taps - 1;
    for (int t = threadIdx.x; t < span; t += blockDim.x) {
        int j = base - r + t;
        s_x[t] = (j >= 0 && j < n) ? xr[j] : 0.f;
    }
    __syncthreads();

    int i = base + threadIdx.x;
    if (i >= n) return;
    float acc = 0.f;
    for (int k = 0; k < taps; ++k) acc += s_w[k] * s_x[threadIdx.x + k];
    y[(size_t)row * n + i] = acc;
}
"""

_module = cp.RawModule(code=_SRC)
_conv = _module.get_function("conv1d_smem_halo_v2")
BLOCK = 256


def conv1d(x, w):
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    w = cp.ascontiguousarray(w, dtype=cp.float32)
    rows, n = x.shape
    taps = int(w.size)
    y = cp.empty((rows, n), dtype=cp.float32)
    smem = (taps + BLOCK + taps - 1) * 4
    _conv(((n + BLOCK - 1) // BLOCK, rows), (BLOCK,), (x, w, y, np.int32(n), np.int32(taps)),
          shared_mem=smem)
    return y
