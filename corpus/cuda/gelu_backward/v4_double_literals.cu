// GELU backward (tanh approximation), naive one thread per element written with unsuffixed
// literals: the arithmetic is promoted to double and tanh() takes the double overload.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: n = 33554432; dy: f32[n] randn; x: f32[n] randn; dx: f32[n]; rtol = 1e-3; atol = 1e-4
__global__ void gelu_backward(const float* __restrict__ dy, const float* __restrict__ x, float* __restrict__ dx, int n)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n) return;
    const float v = x[i];
    const float t = tanh(0.7978845608028654 * (v + 0.044715 * v * v * v));
    const float g = 0.5 * (1.0 + t) + 0.5 * v * (1.0 - t * t) * 0.7978845608028654 * (1.0 + 3.0 * 0.044715 * v * v);
    dx[i] = dy[i] * g;
}

extern "C" void launch_gelu_backward(const float* dy, const float* x, float* dx, int n, cudaStream_t stream)
{
    gelu_backward<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(dy, x, dx, n);
}
