// c = a * b for n interleaved complex numbers: one complex per thread, loaded and stored as a
// single 8-byte float2, blocks of 256.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; a: f32[n, 2] randn; b: f32[n, 2] randn; c: f32[n, 2]; rtol = 1e-5; atol = 1e-5
__global__ void complex_mul(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float2 x = reinterpret_cast<const float2*>(a)[i];
        const float2 y = reinterpret_cast<const float2*>(b)[i];
        reinterpret_cast<float2*>(c)[i] = make_float2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
    }
}

extern "C" void launch_complex_mul(const float* a, const float* b, float* c, int n, cudaStream_t stream)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    complex_mul<<<blocks, THREADS, 0, stream>>>(a, b, c, n);
}
