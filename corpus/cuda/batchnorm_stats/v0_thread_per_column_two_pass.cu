// Per-column mean and (population) variance of a row-major N x C matrix. Naive:
// one thread per column walks all rows twice (sum, then squared deviations);
// coalesced across columns but only C threads. ws/count are unused here.
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: N = 4096; C = 4096; x: f32[N, C] randn; mean: f32[C]; var: f32[C]; ws: f32[2, C] zeros; count: u32[C] zeros; outputs = mean, var; rtol = 1e-3; atol = 1e-4
__global__ void bn_stats(const float* __restrict__ x, float* __restrict__ mean, float* __restrict__ var,
                         float* __restrict__ ws, unsigned int* __restrict__ count, int N, int C)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float s = 0.0f;
    for (int r = 0; r < N; ++r) s += x[(size_t)r * C + c];
    const float m = s / N;
    float ss = 0.0f;
    for (int r = 0; r < N; ++r) {
        const float d = x[(size_t)r * C + c] - m;
        ss += d * d;
    }
    mean[c] = m;
    var[c] = ss / N;
}

extern "C" void launch_bn_stats(const float* x, float* mean, float* var, float* ws, unsigned int* count, int N, int C,
                                cudaStream_t stream)
{
    bn_stats<<<(C + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, mean, var, ws, count, N, C);
}
