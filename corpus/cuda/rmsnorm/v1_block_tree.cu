// RMSNorm, one block of 256 threads per row: sum of squares with a shared-memory
// tree, then a second (cached) pass over the row scales it.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 2048; eps = 0.000001; x: f32[rows, cols] randn; w: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-3; atol = 1e-4
__global__ void rmsnorm(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                        int rows, int cols, float eps)
{
    __shared__ float buf[THREADS];
    __shared__ float scale;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float ss = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) ss += xr[c] * xr[c];
    buf[threadIdx.x] = ss;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) scale = 1.0f / sqrtf(buf[0] / cols + eps);
    __syncthreads();
    for (int c = threadIdx.x; c < cols; c += THREADS) yr[c] = xr[c] * scale * w[c];
}

extern "C" void launch_rmsnorm(const float* x, const float* w, float* y, int rows, int cols, float eps,
                               cudaStream_t stream)
{
    rmsnorm<<<rows, THREADS, 0, stream>>>(x, w, y, rows, cols, eps);
}
