// Black-Scholes call and put prices, one thread per option, fast intrinsics:
// the fast version with its statements reordered (discount factor and sqrt(T)
// first) and variables renamed; the same arithmetic.
#include <cuda_runtime.h>
#include <math.h>

#define BLOCK_THREADS 256
// Inputs are uniform [0, 1) draws mapped to spot in [5, 30], strike in [1, 100]
// and expiry in [0.25, 10] years (the ranges of the CUDA SDK sample).
#define S_LO 5.0f
#define S_SPAN 25.0f
#define X_LO 1.0f
#define X_SPAN 99.0f
#define T_LO 0.25f
#define T_SPAN 9.75f

// Cumulative normal distribution, Abramowitz-Stegun 26.2.17, with fast intrinsics.
__device__ __forceinline__ float cnd_fast(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;
    const float k = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * __expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    if (d > 0.0f) c = 1.0f - c;
    return c;
}

// kforecast: n = 16777216; r = 0.02; v = 0.30; s01: f32[n] rand; x01: f32[n] rand; t01: f32[n] rand; call: f32[n]; put: f32[n]; rtol = 1e-3; atol = 1e-3
__global__ void black_scholes(const float* __restrict__ s01, const float* __restrict__ x01, const float* __restrict__ t01,
                              float* __restrict__ call, float* __restrict__ put, float r, float v, int n)
{
    const int idx = threadIdx.x + blockIdx.x * BLOCK_THREADS;
    if (idx < n) {
        const float years = T_LO + T_SPAN * t01[idx];
        const float strike = X_LO + X_SPAN * x01[idx];
        const float spot = S_LO + S_SPAN * s01[idx];
        const float disc_strike = strike * __expf(-r * years);
        const float vol_sqrt_t = v * years * rsqrtf(years);
        const float d1 = (__logf(__fdividef(spot, strike)) + (r + 0.5f * v * v) * years) * __fdividef(1.0f, vol_sqrt_t);
        const float n1 = cnd_fast(d1);
        const float n2 = cnd_fast(d1 - vol_sqrt_t);
        put[idx] = disc_strike * (1.0f - n2) - spot * (1.0f - n1);
        call[idx] = spot * n1 - disc_strike * n2;
    }
}

extern "C" void launch_black_scholes(const float* s01, const float* x01, const float* t01, float* call, float* put,
                                     float r, float v, int n, cudaStream_t stream)
{
    black_scholes<<<(n + BLOCK_THREADS - 1) / BLOCK_THREADS, BLOCK_THREADS, 0, stream>>>(s01, x01, t01, call, put, r, v, n);
}
