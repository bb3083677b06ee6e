// GELU backward (tanh approximation), dx = dy * gelu'(x); naive: one thread per element,
// 256-thread blocks, tanhf.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// d/dx of the tanh-approximated GELU 0.5 x (1 + tanh(k0 (x + k1 x^3))).
__device__ __forceinline__ float gelu_grad(float v)
{
    const float k0 = 0.7978845608028654f;
    const float k1 = 0.044715f;
    const float v2 = v * v;
    const float t = tanhf(k0 * v * (1.0f + k1 * v2));
    return 0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * k0 * (1.0f + 3.0f * k1 * v2);
}

// kforecast: n = 33554432; dy: f32[n] randn; x: f32[n] randn; dx: f32[n]; rtol = 1e-3; atol = 1e-4
__global__ void gelu_backward(const float* __restrict__ dy, const float* __restrict__ x, float* __restrict__ dx, int n)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) dx[i] = dy[i] * gelu_grad(x[i]);
}

extern "C" void launch_gelu_backward(const float* dy, const float* x, float* dx, int n, cudaStream_t stream)
{
    gelu_backward<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(dy, x, dx, n);
}
