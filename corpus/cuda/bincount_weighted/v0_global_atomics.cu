// Weighted bincount out[values[i]] += weights[i] over 1024 bins, naive: one global float
// atomicAdd per element.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; values: i32[n] randint(0,1024); weights: f32[n] rand; out: f32[1024] zeros; rtol = 1e-3; atol = 1e-2
__global__ void bincount_weighted(const int* __restrict__ values, const float* __restrict__ weights, float* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&out[values[i]], weights[i]);
}

extern "C" void launch_bincount_weighted(const int* values, const float* weights, float* out, int n, cudaStream_t stream)
{
    bincount_weighted<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(values, weights, out, n);
}
