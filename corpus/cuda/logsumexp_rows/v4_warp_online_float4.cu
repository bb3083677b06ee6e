// logsumexp of each row, one warp per row, single online pass over float4 loads
// (cols % 4 == 0): one rescale per float4 against its local max, unrolled x2 for
// more loads in flight; shuffle merge of the (max, sum) pairs.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define FULL_MASK    0xffffffffu

__device__ __forceinline__ void absorb(float& m, float& s, float4 v)
{
    const float mn = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    s = s * __expf(m - mn) + ((__expf(v.x - mn) + __expf(v.y - mn)) + (__expf(v.z - mn) + __expf(v.w - mn)));
    m = mn;
}

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
logsumexp_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)r * cols);
    const int n4 = cols >> 2;
    float m = -INFINITY, s = 0.0f;
    int i = lane;
    for (; i + 32 < n4; i += 64) {
        const float4 a = xr[i];
        const float4 b = xr[i + 32];
        absorb(m, s, a);
        absorb(m, s, b);
    }
    if (i < n4) absorb(m, s, xr[i]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(FULL_MASK, m, o);
        const float s2 = __shfl_xor_sync(FULL_MASK, s, o);
        const float mx = fmaxf(m, m2);
        const float a = m == -INFINITY ? 0.0f : s * __expf(m - mx);
        const float b = m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mx);
        m = mx;
        s = a + b;
    }
    if (lane == 0) out[r] = m + __logf(s);
}

extern "C" void launch_logsumexp_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    logsumexp_rows<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
