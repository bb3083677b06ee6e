// LayerNorm input gradient, one block of 256 threads per row: strided (coalesced) pass for
// sum(g) and sum(g * xhat), shared-memory tree reductions, then a second pass re-reading the row.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 16384; D = 1024; dy: f32[rows, D] randn; x: f32[rows, D] randn; mean: f32[rows] randn; rstd: f32[rows] rand; gamma: f32[D] randn; dx: f32[rows, D]; rtol = 1e-3; atol = 1e-4
__global__ void layernorm_backward(const float* __restrict__ dy, const float* __restrict__ x, const float* __restrict__ mean,
                                   const float* __restrict__ rstd, const float* __restrict__ gamma, float* __restrict__ dx,
                                   int rows, int D)
{
    __shared__ float s_g[THREADS];
    __shared__ float s_gx[THREADS];
    const int r = blockIdx.x;
    const int t = threadIdx.x;
    const float* dyr = dy + (size_t)r * D;
    const float* xr = x + (size_t)r * D;
    float* dxr = dx + (size_t)r * D;
    const float mu = mean[r], rs = rstd[r];
    float sum_g = 0.0f, sum_gx = 0.0f;
    for (int j = t; j < D; j += THREADS) {
        const float xhat = (xr[j] - mu) * rs;
        const float g = dyr[j] * gamma[j];
        sum_g += g;
        sum_gx += g * xhat;
    }
    s_g[t] = sum_g;
    s_gx[t] = sum_gx;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) {
            s_g[t] += s_g[t + s];
            s_gx[t] += s_gx[t + s];
        }
        __syncthreads();
    }
    const float c1 = s_g[0] / D, c2 = s_gx[0] / D;
    for (int j = t; j < D; j += THREADS) {
        const float xhat = (xr[j] - mu) * rs;
        const float g = dyr[j] * gamma[j];
        dxr[j] = rs * (g - c1 - xhat * c2);
    }
}

extern "C" void launch_layernorm_backward(const float* dy, const float* x, const float* mean, const float* rstd,
                                          const float* gamma, float* dx, int rows, int D, cudaStream_t stream)
{
    layernorm_backward<<<rows, THREADS, 0, stream>>>(dy, x, mean, rstd, gamma, dx, rows, D);
}
