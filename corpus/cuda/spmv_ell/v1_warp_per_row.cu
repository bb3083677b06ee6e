// y = A x, ELLPACK row-major: one warp per row (the CSR vector kernel ported as is), lanes
// stride over the K slots (coalesced, but with K = 16 half the lanes idle), shuffle sum.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 1 << 20; K = 16; n = 1 << 20; cols: i32[rows, K] randint(0, 1048576); vals: f32[rows, K] randn; x: f32[n] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void spmv_ell(const int* __restrict__ cols, const float* __restrict__ vals, const float* __restrict__ x,
                         float* __restrict__ y, int rows, int K)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const int* c = cols + (size_t)r * K;
    const float* v = vals + (size_t)r * K;
    float acc = 0.0f;
    for (int k = lane; k < K; k += 32) acc += v[k] * x[c[k]];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if (lane == 0) y[r] = acc;
}

extern "C" void launch_spmv_ell(const int* cols, const float* vals, const float* x, float* y, int rows, int K,
                                cudaStream_t stream)
{
    spmv_ell<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(cols, vals, x, y, rows, K);
}
