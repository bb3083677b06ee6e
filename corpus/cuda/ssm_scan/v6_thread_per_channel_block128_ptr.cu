// Linear recurrence, one thread per channel walking time serially, as v0 but with 128-thread blocks and pointers bumped by one row per step instead of recomputed indices.
#include <cuda_runtime.h>

#define BLOCK 128

// kforecast: steps = 2048; channels = 8192; a: f32[steps, channels] rand; b: f32[steps, channels] randn; x: f32[steps, channels] randn; y: f32[steps, channels]; rtol = 1e-4; atol = 1e-4
__global__ void ssm_scan(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ x,
                         float* __restrict__ y, int steps, int channels)
{
    const int ch = blockIdx.x * BLOCK + threadIdx.x;
    if (ch < channels) {
        const float* pa = a + ch;
        const float* pb = b + ch;
        const float* px = x + ch;
        float* py = y + ch;
        float state = 0.0f;
        for (int t = 0; t < steps; ++t) {
            state = *pa * state + *pb * *px;
            *py = state;
            pa += channels;
            pb += channels;
            px += channels;
            py += channels;
        }
    }
}

extern "C" void launch_ssm_scan(const float* a, const float* b, const float* x, float* y, int steps, int channels,
                                cudaStream_t stream)
{
    ssm_scan<<<(channels + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(a, b, x, y, steps, channels);
}
