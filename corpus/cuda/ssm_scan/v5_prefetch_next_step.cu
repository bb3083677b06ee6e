// Linear recurrence, one thread per channel with software pipelining: the next step's a, b, x are loaded before the current step's FMA and store, so two steps of loads are in flight.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: steps = 2048; channels = 8192; a: f32[steps, channels] rand; b: f32[steps, channels] randn; x: f32[steps, channels] randn; y: f32[steps, channels]; rtol = 1e-4; atol = 1e-4
__global__ void ssm_scan(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ x,
                         float* __restrict__ y, int steps, int channels)
{
    const int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= channels || steps <= 0) return;
    float h = 0.0f;
    size_t i = d;
    float an = a[i], bn = b[i], xn = x[i];
    for (int t = 0; t < steps; ++t) {
        const float ac = an, bc = bn, xc = xn;
        const size_t inext = i + channels;
        if (t + 1 < steps) {
            an = a[inext];
            bn = b[inext];
            xn = x[inext];
        }
        h = ac * h + bc * xc;
        y[i] = h;
        i = inext;
    }
}

extern "C" void launch_ssm_scan(const float* a, const float* b, const float* x, float* y, int steps, int channels,
                                cudaStream_t stream)
{
    ssm_scan<<<(channels + THREADS - 1) / THREADS, THREADS, 0, stream>>>(a, b, x, y, steps, channels);
}
