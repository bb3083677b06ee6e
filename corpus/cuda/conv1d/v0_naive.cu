// 1-D convolution (cross-correlation) with a 31-tap filter and zero padding:
// y[i] = sum_k w[k] * x[i + k - R]. Naive: all loads from global memory.
#include <cuda_runtime.h>

#define KSIZE   31
#define R       (KSIZE / 2)
#define THREADS 256

// kforecast: n = 1 << 24; x: f32[n] randn; w: f32[31] randn; y: f32[n]; rtol = 1e-4; atol = 1e-4
__global__ void conv1d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < KSIZE; ++k) {
        const int j = i + k - R;
        if (j >= 0 && j < n) acc += w[k] * x[j];
    }
    y[i] = acc;
}

extern "C" void launch_conv1d(const float* x, const float* w, float* y, int n, cudaStream_t stream)
{
    conv1d<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, w, y, n);
}
