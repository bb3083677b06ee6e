import cupy as cp

KERNELS = r"""
#define THREADS 256
#define NWARPS (THREADS / 32)

__device__ __forceinline__ void wf_merge(float& n, float& mean, float& m2, float nb, float meanb, float m2b) {
    const float nt = n + nb;
    if (nt == 0.f) return;
    const float d = meanb - mean;
    const float f = nb / nt;
    mean += d * f;
    m2 += m2b + d * d * n * f;
    n = nt;
}

// a block per row: per-thread Welford, warp merge over shuffles, warp results merged through shared memory
extern "C" __global__ void __launch_bounds__(THREADS)
row_var_block_welford(const float* __restrict__ x, float* __restrict__ out, int cols) {
    __shared__ float s_n[NWARPS], s_mean[NWARPS], s_m2[NWARPS];
    const float* p = x + (long long)blockIdx.x * cols;
    float n = 0.f, mean = 0.f, m2 = 0.f;
    for (int j = threadIdx.x; j < cols; j += THREADS) {
        const float v = p[j];
        n += 1.f;
        const float d = v - mean;
        mean += d / n;
        m2 += d * (v - mean);
    }
    for (int off = 16; off > 0; off >>= 1) {
        const float nb = __shfl_down_sync(0xffffffffu, n, off);
        const float mb = __shfl_down_sync(0xffffffffu, mean, off);
        const float qb = __shfl_down_sync(0xffffffffu, m2, off);
        wf_merge(n, mean, m2, nb, mb, qb);
    }
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) { s_n[warp] = n; s_mean[warp] = mean; s_m2[warp] = m2; }
    __syncthreads();
    if (warp == 0) {
        n = lane < NWARPS ? s_n[lane] : 0.f;
        mean = lane < NWARPS ? s_mean[lane] : 0.f;
        m2 = lane < NWARPS ? s_m2[lane] : 0.f;
        for (int off = 16; off > 0; off >>= 1) {
            const float nb = __shfl_down_sync(0xffffffffu, n, off);
            const float mb = __shfl_down_sync(0xffffffffu, mean, off);
            const float qb = __shfl_down_sync(0xffffffffu, m2, off);
            wf_merge(n, mean, m2, nb, mb, qb);
        }
        if (lane == 0) out[blockIdx.x] = m2 / n;
    }
}
"""

_mod = cp.RawModule(code=KERNELS, options=("--use_fast_math",))
_kernel = _mod.get_function("row_var_block_welford")


def row_var(x):
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    rows, cols = x.shape
    out = cp.empty((rows,), dtype=cp.float32)
    _kernel((rows,), (256,), (x, out, cp.int32(cols)))
    return out
