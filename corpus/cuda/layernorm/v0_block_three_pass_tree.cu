// LayerNorm over the last dimension: y = (x - mean) / sqrt(var + eps) * gamma + beta.
// One block of 256 threads per row; mean and variance each take a pass over the
// row and a shared-memory tree reduction; a third pass normalises.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

__device__ float block_reduce_sum(float v, float* buf)
{
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    const float r = buf[0];
    __syncthreads();
    return r;
}

// kforecast: rows = 16384; cols = 1024; eps = 0.00001; x: f32[rows, cols] randn; gamma: f32[cols] randn; beta: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void layernorm(const float* __restrict__ x, const float* __restrict__ gamma,
                          const float* __restrict__ beta, float* __restrict__ y, int rows, int cols, float eps)
{
    __shared__ float buf[THREADS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float s = 0.0f;
    for (int i = threadIdx.x; i < cols; i += THREADS) s += xr[i];
    const float mean = block_reduce_sum(s, buf) / cols;

    float q = 0.0f;
    for (int i = threadIdx.x; i < cols; i += THREADS) {
        const float d = xr[i] - mean;
        q += d * d;
    }
    const float var = block_reduce_sum(q, buf) / cols;
    const float rstd = 1.0f / sqrtf(var + eps);

    for (int i = threadIdx.x; i < cols; i += THREADS)
        yr[i] = (xr[i] - mean) * rstd * gamma[i] + beta[i];
}

extern "C" void launch_layernorm(const float* x, const float* gamma, const float* beta, float* y, int rows,
                                 int cols, float eps, cudaStream_t stream)
{
    layernorm<<<rows, THREADS, 0, stream>>>(x, gamma, beta, y, rows, cols, eps);
}
