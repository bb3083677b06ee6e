// One Adam step, one element per thread, with the reciprocal bias corrections
// precomputed and fast-math division (__fdividef) in the update.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 512

// kforecast: n = 1 << 24; lr = 0.001; beta1 = 0.9; beta2 = 0.999; eps = 0.00000001; step = 10; p: f32[n] randn; g: f32[n] randn; m: f32[n] randn; v: f32[n] rand; rtol = 1e-4; atol = 1e-5
__global__ void adam_step(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ m,
                          float* __restrict__ v, int n, float lr, float beta1, float beta2, float eps,
                          int step)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float inv_bc1 = 1.0f / (1.0f - powf(beta1, (float)step));
    const float inv_bc2 = 1.0f / (1.0f - powf(beta2, (float)step));
    const float gi = g[i];
    const float mi = fmaf(beta1, m[i], (1.0f - beta1) * gi);
    const float vi = fmaf(beta2, v[i], (1.0f - beta2) * gi * gi);
    m[i] = mi;
    v[i] = vi;
    const float denom = sqrtf(vi * inv_bc2) + eps;
    p[i] -= __fdividef(lr * mi * inv_bc1, denom);
}

extern "C" void launch_adam_step(float* p, const float* g, float* m, float* v, int n, float lr,
                                 float beta1, float beta2, float eps, int step, cudaStream_t stream)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    adam_step<<<blocks, THREADS, 0, stream>>>(p, g, m, v, n, lr, beta1, beta2, eps, step);
}
