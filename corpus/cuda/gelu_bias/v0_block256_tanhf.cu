// out = gelu(x + bias[col]) (tanh approximation), row-major rows x cols.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

__device__ __forceinline__ float gelu_tanh(float v)
{
    const float k0 = 0.7978845608028654f;  // sqrt(2 / pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; bias: f32[cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-4
__global__ void gelu_bias(const float* __restrict__ x, const float* __restrict__ bias,
                          float* __restrict__ out, int rows, int cols)
{
    const long long total = (long long)rows * cols;
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int c = (int)(i % cols);
    out[i] = gelu_tanh(x[i] + bias[c]);
}

extern "C" void launch_gelu_bias(const float* x, const float* bias, float* out, int rows, int cols,
                                 cudaStream_t stream)
{
    const int blocks = (rows * cols + THREADS - 1) / THREADS;
    gelu_bias<<<blocks, THREADS, 0, stream>>>(x, bias, out, rows, cols);
}
