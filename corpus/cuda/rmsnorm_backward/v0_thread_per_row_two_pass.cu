// RMSNorm input gradient dx = rstd * (w*dy - x * rstd^2 * sum(w*dy*x) / n), rstd
// = 1/sqrt(mean(x^2) + eps) recomputed; one thread per row, two serial passes
// (uncoalesced: a warp's 32 loads fall in 32 different rows).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 128

// kforecast: rows = 8192; cols = 4096; eps = 0.000001; x: f32[rows, cols] randn; w: f32[cols] randn; dy: f32[rows, cols] randn; dx: f32[rows, cols]; rtol = 1e-3; atol = 1e-4
__global__ void rmsnorm_backward(const float* __restrict__ x, const float* __restrict__ w,
                                 const float* __restrict__ dy, float* __restrict__ dx, int rows, int cols,
                                 float eps)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    const float* gr = dy + (size_t)r * cols;
    float* dr = dx + (size_t)r * cols;
    float ss = 0.0f, dot = 0.0f;
    for (int c = 0; c < cols; ++c) {
        ss += xr[c] * xr[c];
        dot += w[c] * gr[c] * xr[c];
    }
    const float rstd = 1.0f / sqrtf(ss / cols + eps);
    const float coef = rstd * rstd * dot / cols;
    for (int c = 0; c < cols; ++c) dr[c] = rstd * (w[c] * gr[c] - xr[c] * coef);
}

extern "C" void launch_rmsnorm_backward(const float* x, const float* w, const float* dy, float* dx, int rows,
                                        int cols, float eps, cudaStream_t stream)
{
    const int blocks = (rows + THREADS - 1) / THREADS;
    rmsnorm_backward<<<blocks, THREADS, 0, stream>>>(x, w, dy, dx, rows, cols, eps);
}
