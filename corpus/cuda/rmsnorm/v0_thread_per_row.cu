// RMSNorm: y = x / sqrt(mean(x^2) + eps) * w, one thread per row (uncoalesced:
// a warp's 32 loads fall in 32 different rows).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 64

// kforecast: rows = 8192; cols = 2048; eps = 0.000001; x: f32[rows, cols] randn; w: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-3; atol = 1e-4
__global__ void rmsnorm(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                        int rows, int cols, float eps)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float* yr = y + (size_t)r * cols;
    float ss = 0.0f;
    for (int c = 0; c < cols; ++c) ss += xr[c] * xr[c];
    const float scale = 1.0f / sqrtf(ss / cols + eps);
    for (int c = 0; c < cols; ++c) yr[c] = xr[c] * scale * w[c];
}

extern "C" void launch_rmsnorm(const float* x, const float* w, float* y, int rows, int cols, float eps,
                               cudaStream_t stream)
{
    const int blocks = (rows + THREADS - 1) / THREADS;
    rmsnorm<<<blocks, THREADS, 0, stream>>>(x, w, y, rows, cols, eps);
}
