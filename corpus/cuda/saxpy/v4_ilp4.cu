// y = a * x + y: each thread handles 4 elements spaced blockDim.x apart (ILP,
// all loads issued before any store), so every access stays coalesced.
#include <cuda_runtime.h>

#define THREADS 256
#define ITEMS   4

// kforecast: n = 1 << 24; a = 2.0; x: f32[n] randn; y: f32[n] randn; rtol = 1e-5; atol = 1e-5
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int base = blockIdx.x * (THREADS * ITEMS) + threadIdx.x;
    float xv[ITEMS], yv[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int i = base + k * THREADS;
        xv[k] = i < n ? x[i] : 0.0f;
        yv[k] = i < n ? y[i] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int i = base + k * THREADS;
        if (i < n) y[i] = a * xv[k] + yv[k];
    }
}

extern "C" void launch_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    const int per_block = THREADS * ITEMS;
    const int blocks = (n + per_block - 1) / per_block;
    saxpy<<<blocks, THREADS, 0, stream>>>(n, a, x, y);
}
