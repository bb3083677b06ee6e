// y = a * x + y with 128-bit loads and stores: one float4 per thread, scalar tail.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; a = 2.0; x: f32[n] randn; y: f32[n] randn; rtol = 1e-5; atol = 1e-5
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int n4 = n / 4;
    if (i < n4) {
        const float4 xv = reinterpret_cast<const float4*>(x)[i];
        float4 yv = reinterpret_cast<float4*>(y)[i];
        yv.x = a * xv.x + yv.x;
        yv.y = a * xv.y + yv.y;
        yv.z = a * xv.z + yv.z;
        yv.w = a * xv.w + yv.w;
        reinterpret_cast<float4*>(y)[i] = yv;
    }
    // The last n % 4 elements: one thread each.
    const int t = n4 * 4 + i;
    if (i < 4 && t < n) y[t] = a * x[t] + y[t];
}

extern "C" void launch_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    const int n4 = n / 4;
    int blocks = (n4 + THREADS - 1) / THREADS;
    if (blocks < 1) blocks = 1;
    saxpy<<<blocks, THREADS, 0, stream>>>(n, a, x, y);
}
