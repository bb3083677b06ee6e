// Degree-32 Horner evaluation, fully unrolled, blocks of 1024 threads with a
// launch bound asking for 2 resident blocks per SM (at most 32 registers per thread).
#include <cuda_runtime.h>

#define DEGREE  32
#define THREADS 1024

// kforecast: n = 1 << 24; coef: f32[33] randn; x: f32[n] rand; y: f32[n]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(THREADS, 2)
horner_poly(const float* __restrict__ coef, const float* __restrict__ x, float* __restrict__ y, int n)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n) return;
    const float t = x[i];
    float p = __ldg(&coef[DEGREE]);
#pragma unroll
    for (int k = DEGREE - 1; k >= 0; --k) p = fmaf(p, t, __ldg(&coef[k]));
    y[i] = p;
}

extern "C" void launch_horner_poly(const float* coef, const float* x, float* y, int n, cudaStream_t stream)
{
    horner_poly<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(coef, x, y, n);
}
