// Black-Scholes call and put prices, one thread per option, everything in single
// precision (f-suffixed constants, expf/logf/sqrtf): no double promotion.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
// Inputs are uniform [0, 1) draws mapped to spot in [5, 30], strike in [1, 100]
// and expiry in [0.25, 10] years (the ranges of the CUDA SDK sample).
#define S_LO 5.0f
#define S_SPAN 25.0f
#define X_LO 1.0f
#define X_SPAN 99.0f
#define T_LO 0.25f
#define T_SPAN 9.75f

// Cumulative normal distribution, Abramowitz-Stegun 26.2.17, in float.
__device__ __forceinline__ float cndf(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    if (d > 0.0f) c = 1.0f - c;
    return c;
}

// kforecast: n = 16777216; r = 0.02; v = 0.30; s01: f32[n] rand; x01: f32[n] rand; t01: f32[n] rand; call: f32[n]; put: f32[n]; rtol = 1e-3; atol = 1e-3
__global__ void black_scholes(const float* __restrict__ s01, const float* __restrict__ x01, const float* __restrict__ t01,
                              float* __restrict__ call, float* __restrict__ put, float r, float v, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float S = S_LO + S_SPAN * s01[i];
    const float X = X_LO + X_SPAN * x01[i];
    const float T = T_LO + T_SPAN * t01[i];
    const float sqrtT = sqrtf(T);
    const float d1 = (logf(S / X) + (r + 0.5f * v * v) * T) / (v * sqrtT);
    const float d2 = d1 - v * sqrtT;
    const float cndd1 = cndf(d1);
    const float cndd2 = cndf(d2);
    const float expRT = expf(-r * T);
    call[i] = S * cndd1 - X * expRT * cndd2;
    put[i] = X * expRT * (1.0f - cndd2) - S * (1.0f - cndd1);
}

extern "C" void launch_black_scholes(const float* s01, const float* x01, const float* t01, float* call, float* put,
                                     float r, float v, int n, cudaStream_t stream)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    black_scholes<<<blocks, THREADS, 0, stream>>>(s01, x01, t01, call, put, r, v, n);
}
