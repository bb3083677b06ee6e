// y = A^T x for a row-major A [m, n], one warp per column (the sgemv mapping turned on its
// side): the lanes stride down the column, so every load touches 32 rows (uncoalesced).
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: m = 8192; n = 4096; A: f32[m, n] randn; x: f32[m] randn; y: f32[n] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(THREADS)
gemv_t(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int m, int n)
{
    const int lane = threadIdx.x & 31;
    const int col = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (col >= n) return;
    float acc = 0.0f;
    for (int i = lane; i < m; i += 32) acc += A[(size_t)i * n + col] * x[i];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if (lane == 0) y[col] = acc;
}

extern "C" void launch_gemv_t(const float* A, const float* x, float* y, int m, int n, cudaStream_t stream)
{
    gemv_t<<<(n + WARPS - 1) / WARPS, THREADS, 0, stream>>>(A, x, y, m, n);
}
