// y = A^T x for a row-major A [m, n], one thread per column walking down all m rows:
// coalesced (a warp reads 32 adjacent floats of a row), but only n threads in flight.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: m = 8192; n = 4096; A: f32[m, n] randn; x: f32[m] randn; y: f32[n] zeros; rtol = 1e-3; atol = 1e-2
__global__ void gemv_t(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int m, int n)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n) return;
    float acc = 0.0f;
    for (int i = 0; i < m; ++i) acc += A[(size_t)i * n + col] * x[i];
    y[col] = acc;
}

extern "C" void launch_gemv_t(const float* A, const float* x, float* y, int m, int n, cudaStream_t stream)
{
    gemv_t<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, x, y, m, n);
}
