// y = a * x + y with a grid-stride loop over a grid sized to fill the GPU once.
#include <cuda_runtime.h>

#define THREADS       256
#define NUM_SMS       132   // H100 SXM
#define BLOCKS_PER_SM 8

// kforecast: n = 1 << 24; a = 2.0; x: f32[n] randn; y: f32[n] randn; rtol = 1e-5; atol = 1e-5
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}

extern "C" void launch_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    const int needed = (n + THREADS - 1) / THREADS;
    const int blocks = needed < NUM_SMS * BLOCKS_PER_SM ? needed : NUM_SMS * BLOCKS_PER_SM;
    saxpy<<<blocks, THREADS, 0, stream>>>(n, a, x, y);
}
