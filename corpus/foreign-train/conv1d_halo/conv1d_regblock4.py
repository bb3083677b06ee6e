"""1-D row convolution, register blocking: a block stages 1024 inputs plus the halo in
shared memory, each thread computes 4 neighbouring outputs and slides a 4-value window
through registers, so one shared-memory read feeds four FMAs."""
import cupy as cp
import numpy as np

_SRC = r"""
#define OUT_PER_THREAD 4

extern "C" __global__
void conv1d_rb4(const float* __restrict__ x, const float* __restrict__ w,
                float* __restrict__ y, int n, int taps)
{
    extern __shared__ float smem[];
    float* s_w = smem;
    float* s_x = smem + taps;
    const int r = taps / 2;
    const int row = blockIdx.y;
    const int per_block = blockDim.x * OUT_PER_THREAD;
    const int base = blockIdx.x * per_block;
    const float* xr = x + (size_t)row * n;

    for (int k = threadIdx.x; k < taps; k += blockDim.x) s_w[k] = w[k];
    const int span = per_block + taps - 1;
    for (int t = threadIdx.x; t < span; t += blockDim.x) {
        int j = base - r + t;
        s_x[t] = (j >= 0 && j < n) ? xr[j] : 0.f;
    }
    __syncthreads();

    const int o = threadIdx.x * OUT_PER_THREAD;   // first output of this thread, in the tile
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
    float x0 = s_x[o], x1 = s_x[o + 1], x2 = s_x[o + 2];
    for (int k = 0; k < taps; ++k) {
        float x3 = s_x[o + k + 3];
        float wk = s_w[k];
        a0 += wk * x0;
        a1 += wk * x1;
        a2 += wk * x2;
        a3 += wk * x3;
        x0 = x1; x1 = x2; x2 = x3;
    }
    float* yr = y + (size_t)row * n;
    int i = base + o;
    if (i < n) yr[i] = a0;
    if (i + 1 < n) yr[i + 1] = a1;
    if (i + 2 < n) yr[i + 2] = a2;
    if (i + 3 < n) yr[i + 3] = a3;
}
"""

_mod = cp.RawModule(code=_SRC)
_rb4 = _mod.get_function("conv1d_rb4")
THREADS = 256
OUT_PER_THREAD = 4


def conv1d(x, w):
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    w = cp.ascontiguousarray(w, dtype=cp.float32)
    rows, n = x.shape
    taps = int(w.size)
    per_block = THREADS * OUT_PER_THREAD
    y = cp.empty_like(x)
    smem = (taps + per_block + taps - 1) * 4
    _rb4(((n + per_block - 1) // per_block, rows), (THREADS,),
         (x, w, y, np.int32(n), np.int32(taps)), shared_mem=smem)
    return y
