// LayerNorm, one block of 256 threads per row: a single statistics pass
// accumulates sum and sum of squares together (var = E[x^2] - mean^2), reduced
// with warp shuffles; a second pass normalises.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   256
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

// kforecast: rows = 16384; cols = 1024; eps = 0.00001; x: f32[rows, cols] randn; gamma: f32[cols] randn; beta: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
layernorm(const float* __restrict__ x, const float* __restrict__ gamma, const float* __restrict__ beta,
          float* __restrict__ y, int rows, int cols, float eps)
{
    __shared__ float red_s[THREADS / 32], red_q[THREADS / 32];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

    float s = 0.0f, q = 0.0f;
    for (int i = threadIdx.x; i < cols; i += THREADS) {
        const float v = xr[i];
        s += v;
        q = fmaf(v, v, q);
    }
    s = warp_sum(s);
    q = warp_sum(q);
    if (lane == 0) {
        red_s[warp] = s;
        red_q[warp] = q;
    }
    __syncthreads();
    s = warp_sum(lane < THREADS / 32 ? red_s[lane] : 0.0f);
    q = warp_sum(lane < THREADS / 32 ? red_q[lane] : 0.0f);
    const float mean = s / cols;
    const float var = fmaxf(q / cols - mean * mean, 0.0f);
    const float rstd = rsqrtf(var + eps);

    for (int i = threadIdx.x; i < cols; i += THREADS)
        yr[i] = (xr[i] - mean) * rstd * gamma[i] + beta[i];
}

extern "C" void launch_layernorm(const float* x, const float* gamma, const float* beta, float* y, int rows,
                                 int cols, float eps, cudaStream_t stream)
{
    layernorm<<<rows, THREADS, 0, stream>>>(x, gamma, beta, y, rows, cols, eps);
}
