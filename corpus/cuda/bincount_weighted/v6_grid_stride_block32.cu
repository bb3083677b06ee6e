// Weighted bincount: the shared grid-stride version with the block size swept down to 32
// threads on the same fixed grid (4 blocks per SM), so each SM runs only 128 threads.
#include <cuda_runtime.h>

#define THREADS 32
#define BINS    1024
#define NUM_SMS 132

// kforecast: n = 1 << 24; values: i32[n] randint(0,1024); weights: f32[n] rand; out: f32[1024] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(THREADS)
bincount_weighted(const int* __restrict__ values, const float* __restrict__ weights, float* __restrict__ out, int n)
{
    __shared__ float local[BINS];
    for (int b = threadIdx.x; b < BINS; b += THREADS) local[b] = 0.0f;
    __syncthreads();
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        atomicAdd(&local[values[i]], weights[i]);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += THREADS)
        if (local[b] != 0.0f) atomicAdd(&out[b], local[b]);
}

extern "C" void launch_bincount_weighted(const int* values, const float* weights, float* out, int n, cudaStream_t stream)
{
    bincount_weighted<<<NUM_SMS * 4, THREADS, 0, stream>>>(values, weights, out, n);
}
