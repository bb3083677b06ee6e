// GroupNorm forward, NCHW: one block of 256 threads per (sample, group); the mean and then the
// variance each take a pass over the group's C/G x HW elements and a shared-memory tree
// reduction; a third pass normalises and applies the per-channel weight and bias.
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

// kforecast: N = 64; C = 256; HW = 1024; G = 32; eps = 0.00001; x: f32[N, C, HW] randn; weight: f32[C] randn; bias: f32[C] randn; y: f32[N, C, HW]; rtol = 1e-3; atol = 1e-3
__global__ void group_norm(const float* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
           float* __restrict__ y, int N, int C, int HW, int G, float eps)
{
    __shared__ float buf[THREADS];
    const int cpg = C / G;
    const int g = blockIdx.x % G;
    const int count = cpg * HW;
    const float* xg = x + (size_t)blockIdx.x * count;
    float* yg = y + (size_t)blockIdx.x * count;

    float s = 0.0f;
    for (int i = threadIdx.x; i < count; i += THREADS) s += xg[i];
    const float mean = block_reduce_sum(s, buf) / count;

    float q = 0.0f;
    for (int i = threadIdx.x; i < count; i += THREADS) {
        const float d = xg[i] - mean;
        q += d * d;
    }
    const float var = block_reduce_sum(q, buf) / count;
    const float rstd = 1.0f / sqrtf(var + eps);

    for (int i = threadIdx.x; i < count; i += THREADS) {
        const int c = g * cpg + i / HW;
        yg[i] = (xg[i] - mean) * rstd * weight[c] + bias[c];
    }
}

extern "C" void launch_group_norm(const float* x, const float* weight, const float* bias, float* y, int N, int C, int HW,
                                  int G, float eps, cudaStream_t stream)
{
    group_norm<<<N * G, THREADS, 0, stream>>>(x, weight, bias, y, N, C, HW, G, eps);
}
