// y = A @ x, one block of 256 threads per row with a shared-memory tree reduction.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 4096; A: f32[rows, cols] randn; x: f32[cols] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-2
__global__ void sgemv(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int rows,
                      int cols)
{
    __shared__ float part[THREADS];
    const float* a = A + (size_t)blockIdx.x * cols;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) acc += a[c] * x[c];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[blockIdx.x] = part[0];
}

extern "C" void launch_sgemv(const float* A, const float* x, float* y, int rows, int cols, cudaStream_t stream)
{
    sgemv<<<rows, THREADS, 0, stream>>>(A, x, y, rows, cols);
}
