// 1-D convolution, 31 taps: a block of 128 threads computes 512 outputs from a
// shared tile (plus halo); each thread produces 4 outputs spaced 128 apart, so
// every filter tap read from shared memory is reused 4 times from a register.
#include <cuda_runtime.h>

#define KSIZE   31
#define R       (KSIZE / 2)
#define THREADS 128
#define OUTS    4
#define SPAN    (THREADS * OUTS)

// kforecast: n = 1 << 24; x: f32[n] randn; w: f32[31] randn; y: f32[n]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
conv1d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int n)
{
    __shared__ float tile[SPAN + 2 * R];
    __shared__ float ws[KSIZE];
    const int base = blockIdx.x * SPAN - R;
    for (int t = threadIdx.x; t < SPAN + 2 * R; t += THREADS) {
        const int j = base + t;
        tile[t] = (j >= 0 && j < n) ? x[j] : 0.0f;
    }
    if (threadIdx.x < KSIZE) ws[threadIdx.x] = w[threadIdx.x];
    __syncthreads();
    float acc[OUTS];
#pragma unroll
    for (int o = 0; o < OUTS; ++o) acc[o] = 0.0f;
#pragma unroll
    for (int k = 0; k < KSIZE; ++k) {
        const float wk = ws[k];
#pragma unroll
        for (int o = 0; o < OUTS; ++o) acc[o] += wk * tile[threadIdx.x + o * THREADS + k];
    }
#pragma unroll
    for (int o = 0; o < OUTS; ++o) {
        const int i = blockIdx.x * SPAN + o * THREADS + threadIdx.x;
        if (i < n) y[i] = acc[o];
    }
}

extern "C" void launch_conv1d(const float* x, const float* w, float* y, int n, cudaStream_t stream)
{
    conv1d<<<(n + SPAN - 1) / SPAN, THREADS, 0, stream>>>(x, w, y, n);
}
