// One Adam optimiser step over a flat parameter vector, one element per thread.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: n = 1 << 24; lr = 0.001; beta1 = 0.9; beta2 = 0.999; eps = 0.00000001; step = 10; p: f32[n] randn; g: f32[n] randn; m: f32[n] randn; v: f32[n] rand; rtol = 1e-4; atol = 1e-5
__global__ void adam_step(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ m,
                          float* __restrict__ v, int n, float lr, float beta1, float beta2, float eps,
                          int step)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float gi = g[i];
    float mi = beta1 * m[i] + (1.0f - beta1) * gi;
    float vi = beta2 * v[i] + (1.0f - beta2) * gi * gi;
    m[i] = mi;
    v[i] = vi;
    float m_hat = mi / (1.0f - powf(beta1, (float)step));
    float v_hat = vi / (1.0f - powf(beta2, (float)step));
    p[i] = p[i] - lr * m_hat / (sqrtf(v_hat) + eps);
}

extern "C" void launch_adam_step(float* p, const float* g, float* m, float* v, int n, float lr,
                                 float beta1, float beta2, float eps, int step, cudaStream_t stream)
{
    int blocks = (n + THREADS - 1) / THREADS;
    adam_step<<<blocks, THREADS, 0, stream>>>(p, g, m, v, n, lr, beta1, beta2, eps, step);
}
