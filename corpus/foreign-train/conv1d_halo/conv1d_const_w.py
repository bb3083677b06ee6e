"""1-D row convolution with the taps in constant memory (a broadcast to the whole warp)
and a shared-memory tile with halo; one output per thread."""
import cupy as cp
import numpy as np

MAX_TAPS = 127

_SRC = r"""
#define MAX_TAPS 127
__constant__ float c_taps[MAX_TAPS];

extern "C" __global__
void conv1d_const_taps(const float* __restrict__ x, float* __restrict__ y, int n, int taps)
{
    extern __shared__ float tile[];
    const int half = taps / 2;
    const int row = blockIdx.y;
    const int start = blockIdx.x * blockDim.x;
    const float* src = x + (size_t)row * n;

    for (int t = threadIdx.x; t < blockDim.x + taps - 1; t += blockDim.x) {
        int j = start - half + t;
        tile[t] = (j >= 0 && j < n) ? src[j] : 0.0f;
    }
    __syncthreads();

    int i = start + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        for (int k = 0; k < taps; ++k) acc += c_taps[k] * tile[threadIdx.x + k];
        y[(size_t)row * n + i] = acc;
    }
}
"""

module = cp.RawModule(code=_SRC)
conv_kernel = module.get_function("conv1d_const_taps")
taps_symbol = module.get_global("c_taps")
BLOCK = 256


def conv1d(x, w):
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    w = cp.ascontiguousarray(w, dtype=cp.float32)
    taps = int(w.size)
    if taps > MAX_TAPS or taps % 2 == 0:
        raise ValueError(f"conv1d: need an odd number of taps <= {MAX_TAPS}, got {taps}")
    rows, n = x.shape
    stream = cp.cuda.get_current_stream()
    taps_symbol.copy_from_device_async(w.data, taps * 4, stream)
    y = cp.empty_like(x)
    conv_kernel(((n + BLOCK - 1) // BLOCK, rows), (BLOCK,), (x, y, np.int32(n), np.int32(taps)),
                shared_mem=(BLOCK + taps - 1) * 4)  # launches on the current stream
    return y
