// One RMSprop step, one element per thread, 512-thread blocks; all loads issued first, stores reordered (p before v).
#include <cuda_runtime.h>
#include <math.h>

#define BLOCK 512

// kforecast: n = 1 << 25; alpha = 0.99; lr = 0.01; eps = 0.00000001; p: f32[n] randn; v: f32[n] rand; g: f32[n] randn; rtol = 1e-4; atol = 1e-5
__global__ void rmsprop_step(float* __restrict__ p, float* __restrict__ v, const float* __restrict__ g, int n,
                             float alpha, float lr, float eps)
{
    const int idx = blockDim.x * blockIdx.x + threadIdx.x;
    if (idx < n) {
        const float grad = g[idx];
        const float sq = v[idx];
        const float param = p[idx];
        const float sq_new = alpha * sq + (1.0f - alpha) * grad * grad;
        p[idx] = param - lr * grad / (sqrtf(sq_new) + eps);
        v[idx] = sq_new;
    }
}

extern "C" void launch_rmsprop_step(float* p, float* v, const float* g, int n, float alpha, float lr, float eps,
                                    cudaStream_t stream)
{
    const int grid = (n + BLOCK - 1) / BLOCK;
    rmsprop_step<<<grid, BLOCK, 0, stream>>>(p, v, g, n, alpha, lr, eps);
}
