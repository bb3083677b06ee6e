// One RMSprop step, ILP: each thread loads four independent elements spaced a block apart before computing any of them.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
#define ILP 4

// kforecast: n = 1 << 25; alpha = 0.99; lr = 0.01; eps = 0.00000001; p: f32[n] randn; v: f32[n] rand; g: f32[n] randn; rtol = 1e-4; atol = 1e-5
__global__ void rmsprop_step(float* __restrict__ p, float* __restrict__ v, const float* __restrict__ g, int n,
                             float alpha, float lr, float eps)
{
    const int base = blockIdx.x * (THREADS * ILP) + threadIdx.x;
    float pr[ILP], vr[ILP], gr[ILP];
#pragma unroll
    for (int k = 0; k < ILP; ++k) {
        const int i = base + k * THREADS;
        if (i < n) {
            pr[k] = p[i];
            vr[k] = v[i];
            gr[k] = g[i];
        }
    }
#pragma unroll
    for (int k = 0; k < ILP; ++k) {
        const int i = base + k * THREADS;
        if (i < n) {
            const float vi = alpha * vr[k] + (1.0f - alpha) * gr[k] * gr[k];
            v[i] = vi;
            p[i] = pr[k] - lr * gr[k] / (sqrtf(vi) + eps);
        }
    }
}

extern "C" void launch_rmsprop_step(float* p, float* v, const float* g, int n, float alpha, float lr, float eps,
                                    cudaStream_t stream)
{
    const int blocks = (n + THREADS * ILP - 1) / (THREADS * ILP);
    rmsprop_step<<<blocks, THREADS, 0, stream>>>(p, v, g, n, alpha, lr, eps);
}
