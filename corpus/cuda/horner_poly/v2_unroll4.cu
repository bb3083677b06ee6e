// Evaluate a degree-32 polynomial at every point with Horner's rule:
// y = (((c32 x + c31) x + c30) x + ...) x + c0. Loop unrolled by 4; coefficients
// still read from global memory (uniform, cached).
#include <cuda_runtime.h>

#define DEGREE  32
#define THREADS 256

// kforecast: n = 1 << 24; coef: f32[33] randn; x: f32[n] rand; y: f32[n]; rtol = 1e-4; atol = 1e-4
__global__ void horner_poly(const float* __restrict__ coef, const float* __restrict__ x, float* __restrict__ y,
                            int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float t = x[i];
    float p = coef[DEGREE];
#pragma unroll 4
    for (int k = DEGREE - 1; k >= 0; --k) p = p * t + coef[k];
    y[i] = p;
}

extern "C" void launch_horner_poly(const float* coef, const float* x, float* y, int n, cudaStream_t stream)
{
    horner_poly<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(coef, x, y, n);
}
