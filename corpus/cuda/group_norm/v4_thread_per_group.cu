// GroupNorm forward, one thread per (sample, group): each thread loops serially over its
// group's C/G x HW elements for the mean, the variance and the output (64-thread blocks).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 64

// kforecast: N = 64; C = 256; HW = 1024; G = 32; eps = 0.00001; x: f32[N, C, HW] randn; weight: f32[C] randn; bias: f32[C] randn; y: f32[N, C, HW]; rtol = 1e-3; atol = 1e-3
__global__ void group_norm(const float* __restrict__ x, const float* __restrict__ weight, const float* __restrict__ bias,
           float* __restrict__ y, int N, int C, int HW, int G, float eps)
{
    const int gi = blockIdx.x * THREADS + threadIdx.x;
    if (gi >= N * G) return;
    const int cpg = C / G;
    const int g = gi % G;
    const int count = cpg * HW;
    const float* xg = x + (size_t)gi * count;
    float* yg = y + (size_t)gi * count;

    float s = 0.0f;
    for (int i = 0; i < count; ++i) s += xg[i];
    const float mean = s / count;
    float q = 0.0f;
    for (int i = 0; i < count; ++i) {
        const float d = xg[i] - mean;
        q += d * d;
    }
    const float rstd = 1.0f / sqrtf(q / count + eps);
    for (int ch = 0; ch < cpg; ++ch) {
        const int c = g * cpg + ch;
        const float w = weight[c], b = bias[c];
        for (int i = ch * HW; i < (ch + 1) * HW; ++i) yg[i] = (xg[i] - mean) * rstd * w + b;
    }
}

extern "C" void launch_group_norm(const float* x, const float* weight, const float* bias, float* y, int N, int C, int HW,
                                  int G, float eps, cudaStream_t stream)
{
    group_norm<<<(N * G + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, weight, bias, y, N, C, HW, G, eps);
}
