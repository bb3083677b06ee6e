// c = a * b for n interleaved complex numbers (re, im): one complex per thread, four scalar
// loads (a[2i], a[2i+1], b[2i], b[2i+1]) and two scalar stores, blocks of 256.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; a: f32[n, 2] randn; b: f32[n, 2] randn; c: f32[n, 2]; rtol = 1e-5; atol = 1e-5
__global__ void complex_mul(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float ar = a[2 * i], ai = a[2 * i + 1];
        const float br = b[2 * i], bi = b[2 * i + 1];
        c[2 * i] = ar * br - ai * bi;
        c[2 * i + 1] = ar * bi + ai * br;
    }
}

extern "C" void launch_complex_mul(const float* a, const float* b, float* c, int n, cudaStream_t stream)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    complex_mul<<<blocks, THREADS, 0, stream>>>(a, b, c, n);
}
