// SAXPY: out-of-the-box version, one thread per element (tidied up).
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

// kforecast: n = 1 << 24; a = 2.0; x: f32[n] randn; y: f32[n] randn; rtol = 1e-5; atol = 1e-5
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int idx = threadIdx.x + blockDim.x * blockIdx.x;
    if (idx >= n) return;
    const float xi = x[idx];
    y[idx] = fmaf(a, xi, y[idx]);
}

extern "C" void launch_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    dim3 block(BLOCK_SIZE);
    dim3 grid((n + BLOCK_SIZE - 1) / BLOCK_SIZE);
    saxpy<<<grid, block, 0, stream>>>(n, a, x, y);
}
