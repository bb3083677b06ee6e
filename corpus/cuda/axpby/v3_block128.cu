// z = a * x + b * y, one element per thread; THREADS is the block size.
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: n = 1 << 24; a = 1.5; b = -0.5; x: f32[n] randn; y: f32[n] randn; z: f32[n]; rtol = 1e-5; atol = 1e-6
__global__ void axpby(int n, float a, const float* __restrict__ x, float b, const float* __restrict__ y,
                      float* __restrict__ z)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = a * x[i] + b * y[i];
}

extern "C" void launch_axpby(int n, float a, const float* x, float b, const float* y, float* z, cudaStream_t stream)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    axpby<<<blocks, THREADS, 0, stream>>>(n, a, x, b, y, z);
}
