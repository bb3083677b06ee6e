// Rank-1 update A += alpha * x y^T, 2-D grid of 32 x 8 blocks: threadIdx.x runs along a row
// (coalesced), no division or modulo.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: n = 8192; alpha = 0.5; A: f32[n, n] randn; x: f32[n] randn; y: f32[n] randn; outputs = A; rtol = 1e-5; atol = 1e-5
__global__ void outer_product(float* __restrict__ A, const float* __restrict__ x, const float* __restrict__ y,
                              float alpha, int n)
{
    const int j = blockIdx.x * BX + threadIdx.x;
    const int i = blockIdx.y * BY + threadIdx.y;
    if (i >= n || j >= n) return;
    A[(size_t)i * n + j] += alpha * x[i] * y[j];
}

extern "C" void launch_outer_product(float* A, const float* x, const float* y, float alpha, int n,
                                     cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((n + BX - 1) / BX, (n + BY - 1) / BY);
    outer_product<<<grid, block, 0, stream>>>(A, x, y, alpha, n);
}
