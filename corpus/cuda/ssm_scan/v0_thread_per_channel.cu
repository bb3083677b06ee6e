// Diagonal linear recurrence h_t = a_t * h_{t-1} + b_t * x_t, y_t = h_t: one thread per channel walks all time steps serially (a warp reads 32 consecutive channels per step).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: steps = 2048; channels = 8192; a: f32[steps, channels] rand; b: f32[steps, channels] randn; x: f32[steps, channels] randn; y: f32[steps, channels]; rtol = 1e-4; atol = 1e-4
__global__ void ssm_scan(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ x,
                         float* __restrict__ y, int steps, int channels)
{
    const int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= channels) return;
    float h = 0.0f;
    for (int t = 0; t < steps; ++t) {
        const size_t i = (size_t)t * channels + d;
        h = a[i] * h + b[i] * x[i];
        y[i] = h;
    }
}

extern "C" void launch_ssm_scan(const float* a, const float* b, const float* x, float* y, int steps, int channels,
                                cudaStream_t stream)
{
    ssm_scan<<<(channels + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, x, y, steps, channels);
}
