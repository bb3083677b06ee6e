// One RMSprop step in a grid-stride loop over a fixed grid of 4 blocks per SM (132 SMs), one element per iteration.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
#define NUM_SMS 132

// kforecast: n = 1 << 25; alpha = 0.99; lr = 0.01; eps = 0.00000001; p: f32[n] randn; v: f32[n] rand; g: f32[n] randn; rtol = 1e-4; atol = 1e-5
__global__ void rmsprop_step(float* __restrict__ p, float* __restrict__ v, const float* __restrict__ g, int n,
                             float alpha, float lr, float eps)
{
    const float one_minus_alpha = 1.0f - alpha;
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float gi = g[i];
        const float vi = alpha * v[i] + one_minus_alpha * gi * gi;
        v[i] = vi;
        p[i] = p[i] - lr * gi / (sqrtf(vi) + eps);
    }
}

extern "C" void launch_rmsprop_step(float* p, float* v, const float* g, int n, float alpha, float lr, float eps,
                                    cudaStream_t stream)
{
    const int blocks = NUM_SMS * 4;
    rmsprop_step<<<blocks, THREADS, 0, stream>>>(p, v, g, n, alpha, lr, eps);
}
