// Linear recurrence, ILP across channels: each thread owns 4 consecutive channels (channels % 4 == 0), float4 loads and stores, four independent chains walked serially in time; 64-thread blocks.
#include <cuda_runtime.h>

#define THREADS 64

// kforecast: steps = 2048; channels = 8192; a: f32[steps, channels] rand; b: f32[steps, channels] randn; x: f32[steps, channels] randn; y: f32[steps, channels]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
ssm_scan(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ x,
         float* __restrict__ y, int steps, int channels)
{
    const int q = blockIdx.x * blockDim.x + threadIdx.x;  // float4 column
    const int n4 = channels >> 2;
    if (q >= n4) return;
    const float4* a4 = reinterpret_cast<const float4*>(a);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    float4 h = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int t = 0; t < steps; ++t) {
        const size_t i = (size_t)t * n4 + q;
        const float4 at = a4[i], bt = b4[i], xt = x4[i];
        h.x = at.x * h.x + bt.x * xt.x;
        h.y = at.y * h.y + bt.y * xt.y;
        h.z = at.z * h.z + bt.z * xt.z;
        h.w = at.w * h.w + bt.w * xt.w;
        y4[i] = h;
    }
}

extern "C" void launch_ssm_scan(const float* a, const float* b, const float* x, float* y, int steps, int channels,
                                cudaStream_t stream)
{
    const int n4 = channels / 4;
    ssm_scan<<<(n4 + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, x, y, steps, channels);
}
