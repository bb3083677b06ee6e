// Black-Scholes call and put prices with fast intrinsics, two options per
// thread (i and i + 256 in a block's 512-option slice) for instruction-level
// parallelism; both loads are issued before either option is priced.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
#define PER_THREAD 2
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

// Call and put of one option from its [0, 1) inputs.
__device__ __forceinline__ void price_fast(float su, float xu, float tu, float r, float v, float& c, float& p)
{
    const float S = S_LO + S_SPAN * su;
    const float X = X_LO + X_SPAN * xu;
    const float T = T_LO + T_SPAN * tu;
    const float rsqrtT = rsqrtf(T);
    const float vsqrtT = v * T * rsqrtT;
    const float d1 = (__logf(__fdividef(S, X)) + (r + 0.5f * v * v) * T) * __fdividef(1.0f, vsqrtT);
    const float d2 = d1 - vsqrtT;
    const float cndd1 = cnd_fast(d1);
    const float cndd2 = cnd_fast(d2);
    const float xexp = X * __expf(-r * T);
    c = S * cndd1 - xexp * cndd2;
    p = xexp * (1.0f - cndd2) - S * (1.0f - cndd1);
}

// kforecast: n = 16777216; r = 0.02; v = 0.30; s01: f32[n] rand; x01: f32[n] rand; t01: f32[n] rand; call: f32[n]; put: f32[n]; rtol = 1e-3; atol = 1e-3
__global__ void black_scholes(const float* __restrict__ s01, const float* __restrict__ x01, const float* __restrict__ t01,
                              float* __restrict__ call, float* __restrict__ put, float r, float v, int n)
{
    const int i0 = blockIdx.x * (THREADS * PER_THREAD) + threadIdx.x;
    const int i1 = i0 + THREADS;
    float s0 = 0.0f, x0 = 0.0f, t0 = 0.0f, s1 = 0.0f, x1 = 0.0f, t1 = 0.0f;
    if (i0 < n) { s0 = s01[i0]; x0 = x01[i0]; t0 = t01[i0]; }
    if (i1 < n) { s1 = s01[i1]; x1 = x01[i1]; t1 = t01[i1]; }
    float c0, p0, c1, p1;
    price_fast(s0, x0, t0, r, v, c0, p0);
    price_fast(s1, x1, t1, r, v, c1, p1);
    if (i0 < n) { call[i0] = c0; put[i0] = p0; }
    if (i1 < n) { call[i1] = c1; put[i1] = p1; }
}

extern "C" void launch_black_scholes(const float* s01, const float* x01, const float* t01, float* call, float* put,
                                     float r, float v, int n, cudaStream_t stream)
{
    const int blocks = (n + THREADS * PER_THREAD - 1) / (THREADS * PER_THREAD);
    black_scholes<<<blocks, THREADS, 0, stream>>>(s01, x01, t01, call, put, r, v, n);
}
