// y = A @ x, A row-major rows x cols. One thread per row: each warp reads 32
// different rows per step (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 4096; A: f32[rows, cols] randn; x: f32[cols] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-2
__global__ void sgemv(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int rows,
                      int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float acc = 0.0f;
    for (int c = 0; c < cols; ++c) acc += A[(size_t)r * cols + c] * x[c];
    y[r] = acc;
}

extern "C" void launch_sgemv(const float* A, const float* x, float* y, int rows, int cols, cudaStream_t stream)
{
    sgemv<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(A, x, y, rows, cols);
}
