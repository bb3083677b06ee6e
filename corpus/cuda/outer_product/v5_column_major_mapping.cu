// Rank-1 update A += alpha * x y^T, one thread per element with consecutive threads walking
// down a column (i = idx % n): every warp touches 32 different rows (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 8192; alpha = 0.5; A: f32[n, n] randn; x: f32[n] randn; y: f32[n] randn; outputs = A; rtol = 1e-5; atol = 1e-5
__global__ void outer_product(float* __restrict__ A, const float* __restrict__ x, const float* __restrict__ y,
                              float alpha, int n)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n * n) return;
    const int i = idx % n;
    const int j = idx / n;
    A[(size_t)i * n + j] += alpha * x[i] * y[j];
}

extern "C" void launch_outer_product(float* A, const float* x, const float* y, float alpha, int n,
                                     cudaStream_t stream)
{
    const int total = n * n;
    outer_product<<<(total + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, x, y, alpha, n);
}
