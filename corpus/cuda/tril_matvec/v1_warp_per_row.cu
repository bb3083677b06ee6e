// y = L x, lower-triangular L stored dense: one warp per row, lanes stride over j <= i
// (coalesced), butterfly shuffle sum; 8 warps per block.
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
    float acc = 0.0f;
    for (int j = lane; j <= i; j += 32) acc += row[j] * x[j];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if (lane == 0) y[i] = acc;
}

extern "C" void launch_tril_matvec(const float* L, const float* x, float* y, int n, cudaStream_t stream)
{
    tril_matvec<<<(n + WARPS - 1) / WARPS, THREADS, 0, stream>>>(L, x, y, n);
}
