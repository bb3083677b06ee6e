// Degree-32 polynomial with Estrin's scheme: pairs (c[2k] + c[2k+1] x), then
// combined with x^2, x^4, x^8, x^16 in a tree, so the dependency chain is
// log-depth instead of 32 FMAs long (different rounding than Horner).
#include <cuda_runtime.h>

#define DEGREE  32
#define THREADS 256

// kforecast: n = 1 << 24; coef: f32[33] randn; x: f32[n] rand; y: f32[n]; rtol = 1e-4; atol = 1e-4
__global__ void horner_poly(const float* __restrict__ coef, const float* __restrict__ x, float* __restrict__ y,
                            int n)
{
    __shared__ float c[DEGREE + 1];
    if (threadIdx.x <= DEGREE) c[threadIdx.x] = coef[threadIdx.x];
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float t = x[i];
    float q[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) q[k] = fmaf(c[2 * k + 1], t, c[2 * k]);
    float x2 = t * t;
#pragma unroll
    for (int k = 0; k < 8; ++k) q[k] = fmaf(q[2 * k + 1], x2, q[2 * k]);
    x2 = x2 * x2;  // x^4
#pragma unroll
    for (int k = 0; k < 4; ++k) q[k] = fmaf(q[2 * k + 1], x2, q[2 * k]);
    x2 = x2 * x2;  // x^8
#pragma unroll
    for (int k = 0; k < 2; ++k) q[k] = fmaf(q[2 * k + 1], x2, q[2 * k]);
    x2 = x2 * x2;  // x^16
    const float low = fmaf(q[1], x2, q[0]);  // degree 0..31
    y[i] = fmaf(c[DEGREE], x2 * x2, low);    // + c32 x^32
}

extern "C" void launch_horner_poly(const float* coef, const float* x, float* y, int n, cudaStream_t stream)
{
    horner_poly<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(coef, x, y, n);
}
