// LayerNorm input gradient dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = dy * gamma,
// xhat = (x - mean) * rstd. Naive: one thread per row, two serial passes over the row
// (uncoalesced: a warp's 32 loads fall in 32 different rows).
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: rows = 16384; D = 1024; dy: f32[rows, D] randn; x: f32[rows, D] randn; mean: f32[rows] randn; rstd: f32[rows] rand; gamma: f32[D] randn; dx: f32[rows, D]; rtol = 1e-3; atol = 1e-4
__global__ void layernorm_backward(const float* __restrict__ dy, const float* __restrict__ x, const float* __restrict__ mean,
                                   const float* __restrict__ rstd, const float* __restrict__ gamma, float* __restrict__ dx,
                                   int rows, int D)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* dyr = dy + (size_t)r * D;
    const float* xr = x + (size_t)r * D;
    float* dxr = dx + (size_t)r * D;
    const float mu = mean[r], rs = rstd[r];
    float sum_g = 0.0f, sum_gx = 0.0f;
    for (int j = 0; j < D; ++j) {
        const float xhat = (xr[j] - mu) * rs;
        const float g = dyr[j] * gamma[j];
        sum_g += g;
        sum_gx += g * xhat;
    }
    const float c1 = sum_g / D, c2 = sum_gx / D;
    for (int j = 0; j < D; ++j) {
        const float xhat = (xr[j] - mu) * rs;
        const float g = dyr[j] * gamma[j];
        dxr[j] = rs * (g - c1 - xhat * c2);
    }
}

extern "C" void launch_layernorm_backward(const float* dy, const float* x, const float* mean, const float* rstd,
                                          const float* gamma, float* dx, int rows, int D, cudaStream_t stream)
{
    layernorm_backward<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(dy, x, mean, rstd, gamma, dx, rows, D);
}
