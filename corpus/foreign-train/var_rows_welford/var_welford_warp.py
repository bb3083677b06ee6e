import cupy as cp

_WARPS_PER_BLOCK = 8

src = r"""
struct Welford { float n, mean, m2; };

__device__ __forceinline__ Welford welford_merge(Welford a, Welford b) {
    Welford r;
    r.n = a.n + b.n;
    if (r.n == 0.f) { r.mean = 0.f; r.m2 = 0.f; return r; }
    const float delta = b.mean - a.mean;
    const float wb = b.n / r.n;
    r.mean = a.mean + delta * wb;
    r.m2 = a.m2 + b.m2 + delta * delta * a.n * wb;
    return r;
}

// a warp per row: lane-strided Welford, then a butterfly merge over shuffles
extern "C" __global__ void row_var_warp_welford(const float* __restrict__ x, float* __restrict__ var,
                                                int rows, int cols) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float* p = x + (long long)row * cols;
    Welford w = {0.f, 0.f, 0.f};
    for (int j = lane; j < cols; j += 32) {
        const float v = p[j];
        w.n += 1.f;
        const float d = v - w.mean;
        w.mean += d / w.n;
        w.m2 += d * (v - w.mean);
    }
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        Welford o;
        o.n = __shfl_xor_sync(0xffffffffu, w.n, off);
        o.mean = __shfl_xor_sync(0xffffffffu, w.mean, off);
        o.m2 = __shfl_xor_sync(0xffffffffu, w.m2, off);
        w = welford_merge(w, o);
    }
    if (lane == 0) var[row] = w.m2 / w.n;
}
"""

module = cp.RawModule(code=src)
row_var_warp_welford = module.get_function("row_var_warp_welford")


def row_var(x):
    x = cp.ascontiguousarray(x)
    rows, cols = x.shape
    out = cp.empty(rows, dtype=cp.float32)
    grid = (rows + _WARPS_PER_BLOCK - 1) // _WARPS_PER_BLOCK
    row_var_warp_welford((grid,), (32 * _WARPS_PER_BLOCK,), (x, out, cp.int32(rows), cp.int32(cols)))
    return out
