// y = a * x + y: float4 loads/stores, grid-stride loop, a grid of 4 blocks per SM.
#include <cuda_runtime.h>

#define THREADS       256
#define NUM_SMS       132
#define BLOCKS_PER_SM 4

// kforecast: n = 1 << 24; a = 2.0; x: f32[n] randn; y: f32[n] randn; rtol = 1e-5; atol = 1e-5
__global__ void __launch_bounds__(THREADS)
saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int n4 = n >> 2;
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    const float4* __restrict__ x4 = reinterpret_cast<const float4*>(x);
    float4* __restrict__ y4 = reinterpret_cast<float4*>(y);
    for (int i = tid; i < n4; i += stride) {
        const float4 xv = x4[i];
        float4 yv = y4[i];
        yv.x = fmaf(a, xv.x, yv.x);
        yv.y = fmaf(a, xv.y, yv.y);
        yv.z = fmaf(a, xv.z, yv.z);
        yv.w = fmaf(a, xv.w, yv.w);
        y4[i] = yv;
    }
    const int t = (n4 << 2) + tid;
    if (t < n) y[t] = fmaf(a, x[t], y[t]);
}

extern "C" void launch_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    const int blocks = NUM_SMS * BLOCKS_PER_SM;
    saxpy<<<blocks, THREADS, 0, stream>>>(n, a, x, y);
}
