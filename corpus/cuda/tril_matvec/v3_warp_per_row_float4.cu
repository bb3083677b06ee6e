// y = L x, lower-triangular L stored dense: one warp per row with float4 loads of L and x
// over the (i+1)/4 whole quads (n % 4 == 0), the last 0-3 elements by the first lanes.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: n = 8192; L: f32[n, n] randn; x: f32[n] randn; y: f32[n]; rtol = 1e-3; atol = 1e-2
__global__ void tril_matvec(const float* __restrict__ L, const float* __restrict__ x, float* __restrict__ y, int n)
{
    const int lane = threadIdx.x & 31;
    const int i = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (i >= n) return;
    const float* row = L + (size_t)i * n;
    const float4* row4 = reinterpret_cast<const float4*>(row);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const int quads = (i + 1) >> 2;
    float acc0 = 0.0f, acc1 = 0.0f;
    for (int k = lane; k < quads; k += 32) {
        const float4 a = row4[k], b = __ldg(&x4[k]);
        acc0 = fmaf(a.x, b.x, acc0);
        acc1 = fmaf(a.y, b.y, acc1);
        acc0 = fmaf(a.z, b.z, acc0);
        acc1 = fmaf(a.w, b.w, acc1);
    }
    const int j = (quads << 2) + lane;
    if (j <= i) acc0 = fmaf(row[j], x[j], acc0);
    float acc = acc0 + acc1;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if (lane == 0) y[i] = acc;
}

extern "C" void launch_tril_matvec(const float* L, const float* x, float* y, int n, cudaStream_t stream)
{
    tril_matvec<<<(n + WARPS - 1) / WARPS, THREADS, 0, stream>>>(L, x, y, n);
}
