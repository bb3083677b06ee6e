// c = a * b for n interleaved complex numbers: one thread per output float (2n threads); each
// thread loads both parts of a and b (every value is loaded twice) and writes its re or im part.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; a: f32[n, 2] randn; b: f32[n, 2] randn; c: f32[n, 2]; rtol = 1e-5; atol = 1e-5
__global__ void complex_mul(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < 2 * n) {
        const int k = j & ~1;
        const float ar = a[k], ai = a[k + 1];
        const float br = b[k], bi = b[k + 1];
        c[j] = (j & 1) ? ar * bi + ai * br : ar * br - ai * bi;
    }
}

extern "C" void launch_complex_mul(const float* a, const float* b, float* c, int n, cudaStream_t stream)
{
    const int blocks = (2 * n + THREADS - 1) / THREADS;
    complex_mul<<<blocks, THREADS, 0, stream>>>(a, b, c, n);
}
