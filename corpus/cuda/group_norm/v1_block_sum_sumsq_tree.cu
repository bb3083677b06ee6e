// GroupNorm forward, one block of 256 threads per (sample, group): a single statistics pass
// accumulates sum and sum of squares (var = E[x^2] - mean^2), reduced together in one
// shared-memory tree; a second pass normalises.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: N = 64; C = 256; HW = 1024; G = 32; eps = 0.00001; x: f32[N, C, HW] randn; weight: f32[C] randn; bias: f32[C] randn; y: f32[N, C, HW]; rtol = 1e-3; atol = 1e-3
__global__ void group_norm(const float* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
           float* __restrict__ y, int N, int C, int HW, int G, float eps)
{
    __shared__ float sh_s[THREADS], sh_q[THREADS];
    const int cpg = C / G;
    const int g = blockIdx.x % G;
    const int count = cpg * HW;
    const float* xg = x + (size_t)blockIdx.x * count;
    float* yg = y + (size_t)blockIdx.x * count;

    float s = 0.0f, q = 0.0f;
    for (int i = threadIdx.x; i < count; i += THREADS) {
        const float v = xg[i];
        s += v;
        q += v * v;
    }
    sh_s[threadIdx.x] = s;
    sh_q[threadIdx.x] = q;
    __syncthreads();
    for (int k = THREADS / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) {
            sh_s[threadIdx.x] += sh_s[threadIdx.x + k];
            sh_q[threadIdx.x] += sh_q[threadIdx.x + k];
        }
        __syncthreads();
    }
    const float mean = sh_s[0] / count;
    const float var = fmaxf(sh_q[0] / count - mean * mean, 0.0f);
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
