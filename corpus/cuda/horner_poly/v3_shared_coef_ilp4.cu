// Degree-32 Horner evaluation: coefficients staged in shared memory once per
// block, each thread evaluates 4 points (blockDim apart) with interleaved FMA
// chains, fully unrolled.
#include <cuda_runtime.h>

#define DEGREE  32
#define THREADS 256
#define ITEMS   4

// kforecast: n = 1 << 24; coef: f32[33] randn; x: f32[n] rand; y: f32[n]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
horner_poly(const float* __restrict__ coef, const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float c[DEGREE + 1];
    if (threadIdx.x <= DEGREE) c[threadIdx.x] = coef[threadIdx.x];
    __syncthreads();
    const int base = blockIdx.x * (THREADS * ITEMS) + threadIdx.x;
    float t[ITEMS], p[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const int i = base + j * THREADS;
        t[j] = i < n ? x[i] : 0.0f;
        p[j] = c[DEGREE];
    }
#pragma unroll
    for (int k = DEGREE - 1; k >= 0; --k) {
        const float ck = c[k];
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) p[j] = p[j] * t[j] + ck;
    }
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        const int i = base + j * THREADS;
        if (i < n) y[i] = p[j];
    }
}

extern "C" void launch_horner_poly(const float* coef, const float* x, float* y, int n, cudaStream_t stream)
{
    const int per_block = THREADS * ITEMS;
    horner_poly<<<(n + per_block - 1) / per_block, THREADS, 0, stream>>>(coef, x, y, n);
}
