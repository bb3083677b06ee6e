// 1-D convolution, 31 taps, small blocks: each block loads its 64 inputs plus a halo of R
// on each side into shared memory (zero outside [0, n)), and the filter too;
// the inner loop reads only shared memory.
#include <cuda_runtime.h>

#define KSIZE   31
#define R       (KSIZE / 2)
#define THREADS 64   // small tiles: the 2R halo is 47% extra loads

// kforecast: n = 1 << 24; x: f32[n] randn; w: f32[31] randn; y: f32[n]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
conv1d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int n)
{
    __shared__ float tile[THREADS + 2 * R];
    __shared__ float ws[KSIZE];
    const int base = blockIdx.x * THREADS - R;
    for (int t = threadIdx.x; t < THREADS + 2 * R; t += THREADS) {
        const int j = base + t;
        tile[t] = (j >= 0 && j < n) ? x[j] : 0.0f;
    }
    if (threadIdx.x < KSIZE) ws[threadIdx.x] = w[threadIdx.x];
    __syncthreads();
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < KSIZE; ++k) acc += ws[k] * tile[threadIdx.x + k];
    y[i] = acc;
}

extern "C" void launch_conv1d(const float* x, const float* w, float* y, int n, cudaStream_t stream)
{
    conv1d<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, w, y, n);
}
