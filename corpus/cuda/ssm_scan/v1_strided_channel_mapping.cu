// Linear recurrence, one thread per channel, but lane l of warp w takes channel l * groups + w: the 32 lanes of a warp touch 32 channels far apart on every step (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: steps = 2048; channels = 8192; a: f32[steps, channels] rand; b: f32[steps, channels] randn; x: f32[steps, channels] randn; y: f32[steps, channels]; rtol = 1e-4; atol = 1e-4
__global__ void ssm_scan(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ x,
                         float* __restrict__ y, int steps, int channels)
{
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int groups = (channels + 31) / 32;
    const int lane = g & 31, w = g >> 5;
    if (w >= groups) return;
    const int d = lane * groups + w;
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
    const int groups = (channels + 31) / 32;
    ssm_scan<<<(groups * 32 + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, x, y, steps, channels);
}
