// One RMSprop step over a flat parameter vector, one element per thread (256-thread blocks).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: n = 1 << 25; alpha = 0.99; lr = 0.01; eps = 0.00000001; p: f32[n] randn; v: f32[n] rand; g: f32[n] randn; rtol = 1e-4; atol = 1e-5
__global__ void rmsprop_step(float* __restrict__ p, float* __restrict__ v, const float* __restrict__ g, int n,
                             float alpha, float lr, float eps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float gi = g[i];
    float vi = alpha * v[i] + (1.0f - alpha) * gi * gi;
    v[i] = vi;
    p[i] = p[i] - lr * gi / (sqrtf(vi) + eps);
}

extern "C" void launch_rmsprop_step(float* p, float* v, const float* g, int n, float alpha, float lr, float eps,
                                    cudaStream_t stream)
{
    int blocks = (n + THREADS - 1) / THREADS;
    rmsprop_step<<<blocks, THREADS, 0, stream>>>(p, v, g, n, alpha, lr, eps);
}
