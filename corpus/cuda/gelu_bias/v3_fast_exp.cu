// out = gelu(x + bias[col]) (tanh approximation) with the fast-math exponential:
// tanh(u) = 1 - 2 / (exp(2u) + 1), exp through __expf and the division through
// __fdividef. u is clamped so that exp(2u) cannot overflow.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

__device__ __forceinline__ float fast_tanh(float u)
{
    u = fminf(fmaxf(u, -15.0f), 15.0f);
    return 1.0f - __fdividef(2.0f, __expf(2.0f * u) + 1.0f);
}

__device__ __forceinline__ float gelu_fast(float v)
{
    const float k0 = 0.7978845608028654f;
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + fast_tanh(k0 * (v + k1 * v * v * v)));
}

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; bias: f32[cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-4
__global__ void gelu_bias(const float* __restrict__ x, const float* __restrict__ bias,
                          float* __restrict__ out, int rows, int cols)
{
    const long long total = (long long)rows * cols;
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int c = (int)(i % cols);
    out[i] = gelu_fast(x[i] + bias[c]);
}

extern "C" void launch_gelu_bias(const float* x, const float* bias, float* out, int rows, int cols,
                                 cudaStream_t stream)
{
    const int blocks = (rows * cols + THREADS - 1) / THREADS;
    gelu_bias<<<blocks, THREADS, 0, stream>>>(x, bias, out, rows, cols);
}
