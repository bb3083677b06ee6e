// logsumexp of each row, one block of 128 threads per row: single online pass
// over float4 loads (cols % 4 == 0), shuffle merge inside each warp, then the 4
// warps' (max, sum) pairs merged through shared memory.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   128
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2)
{
    const float mx = fmaxf(m, m2);
    const float a = m == -INFINITY ? 0.0f : s * __expf(m - mx);
    const float b = m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mx);
    m = mx;
    s = a + b;
}

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
logsumexp_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float wm[WARPS];
    __shared__ float ws[WARPS];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)blockIdx.x * cols);
    const int n4 = cols >> 2;
    float m = -INFINITY, s = 0.0f;
    for (int i = threadIdx.x; i < n4; i += THREADS) {
        const float4 v = xr[i];
        const float mn = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
        s = s * __expf(m - mn) + ((__expf(v.x - mn) + __expf(v.y - mn)) + (__expf(v.z - mn) + __expf(v.w - mn)));
        m = mn;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) merge(m, s, __shfl_xor_sync(FULL_MASK, m, o), __shfl_xor_sync(FULL_MASK, s, o));
    if (lane == 0) {
        wm[warp] = m;
        ws[warp] = s;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        m = wm[0];
        s = ws[0];
#pragma unroll
        for (int k = 1; k < WARPS; ++k) merge(m, s, wm[k], ws[k]);
        out[blockIdx.x] = m + __logf(s);
    }
}

extern "C" void launch_logsumexp_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    logsumexp_rows<<<rows, THREADS, 0, stream>>>(x, out, rows, cols);
}
