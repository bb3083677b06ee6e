// y = a * x + y, one element per thread.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; a = 2.0; x: f32[n] randn; y: f32[n] randn; rtol = 1e-5; atol = 1e-5
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" void launch_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    int blocks = (n + THREADS - 1) / THREADS;
    saxpy<<<blocks, THREADS, 0, stream>>>(n, a, x, y);
}
