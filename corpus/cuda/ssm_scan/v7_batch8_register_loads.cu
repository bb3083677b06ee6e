// Linear recurrence, one thread per channel, loads batched 8 steps at a time into registers (24 loads in flight per thread) before the 8 dependent FMAs and stores; scalar tail for steps % 8.
#include <cuda_runtime.h>

#define THREADS 128
#define BATCH   8

// kforecast: steps = 2048; channels = 8192; a: f32[steps, channels] rand; b: f32[steps, channels] randn; x: f32[steps, channels] randn; y: f32[steps, channels]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
ssm_scan(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ x,
         float* __restrict__ y, int steps, int channels)
{
    const int d = blockIdx.x * THREADS + threadIdx.x;
    if (d >= channels) return;
    float h = 0.0f;
    int t = 0;
    for (; t + BATCH <= steps; t += BATCH) {
        float ra[BATCH], rbx[BATCH];
        const size_t base = (size_t)t * channels + d;
#pragma unroll
        for (int j = 0; j < BATCH; ++j) {
            const size_t i = base + (size_t)j * channels;
            ra[j] = a[i];
            rbx[j] = b[i] * x[i];
        }
#pragma unroll
        for (int j = 0; j < BATCH; ++j) {
            h = ra[j] * h + rbx[j];
            y[base + (size_t)j * channels] = h;
        }
    }
    for (; t < steps; ++t) {
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
