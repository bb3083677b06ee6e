"""1-D row convolution: taps in constant memory, 1024-input shared tiles with halo, and
four outputs per thread kept in registers (sliding window)."""
import cupy as cp
import numpy as np

_CODE = r"""
#define MAX_TAPS 127
#define RB 4
__constant__ float g_taps[MAX_TAPS];

extern "C" __global__ void conv1d_const_regblock(const float* __restrict__ x,
                                                 float* __restrict__ y, int n, int taps)
{
    extern __shared__ float s_in[];
    const int r = taps / 2;
    const int tile = blockDim.x * RB;
    const int first = blockIdx.x * tile;
    const size_t row_off = (size_t)blockIdx.y * n;

    for (int t = threadIdx.x; t < tile + taps - 1; t += blockDim.x) {
        int j = first - r + t;
        s_in[t] = (j >= 0 && j < n) ? x[row_off + j] : 0.f;
    }
    __syncthreads();

    const int o = threadIdx.x * RB;
    float acc[RB] = {0.f, 0.f, 0.f, 0.f};
    float win[RB];
#pragma unroll
    for (int q = 0; q < RB - 1; ++q) win[q] = s_in[o + q];
    for (int k = 0; k < taps; ++k) {
        win[RB - 1] = s_in[o + k + RB - 1];
        const float c = g_taps[k];
#pragma unroll
        for (int q = 0; q < RB; ++q) acc[q] += c * win[q];
#pragma unroll
        for (int q = 0; q < RB - 1; ++q) win[q] = win[q + 1];
    }
#pragma unroll
    for (int q = 0; q < RB; ++q) {
        int i = first + o + q;
        if (i < n) y[row_off + i] = acc[q];
    }
}
"""

MAX_TAPS = 127
RB = 4
THREADS = 128

_mod = cp.RawModule(code=_CODE)
_kern = _mod.get_function("conv1d_const_regblock")
_taps = _mod.get_global("g_taps")


def conv1d(x, w):
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    w = cp.ascontiguousarray(w, dtype=cp.float32)
    taps = int(w.size)
    if taps > MAX_TAPS or taps % 2 == 0:
        raise ValueError(f"conv1d: need an odd number of taps <= {MAX_TAPS}, got {taps}")
    rows, n = x.shape
    s = cp.cuda.get_current_stream()
    _taps.copy_from_device_async(w.data, taps * 4, s)
    y = cp.empty_like(x)
    tile = THREADS * RB
    _kern(((n + tile - 1) // tile, rows), (THREADS,), (x, y, np.int32(n), np.int32(taps)),
          shared_mem=(tile + taps - 1) * 4)
    return y
