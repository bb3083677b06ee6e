// Weighted bincount: int4 / float4 loads (4 elements per thread per step) in a grid-stride
// loop, one shared histogram per block, scalar tail for n % 4, one merge per block.
#include <cuda_runtime.h>

#define THREADS 512
#define BINS    1024
#define NUM_SMS 132

// kforecast: n = 1 << 24; values: i32[n] randint(0,1024); weights: f32[n] rand; out: f32[1024] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(THREADS)
bincount_weighted(const int* __restrict__ values, const float* __restrict__ weights, float* __restrict__ out, int n)
{
    __shared__ float local[BINS];
    for (int b = threadIdx.x; b < BINS; b += THREADS) local[b] = 0.0f;
    __syncthreads();
    const int tid = blockIdx.x * THREADS + threadIdx.x;
    const int stride = gridDim.x * THREADS;
    const int n4 = n >> 2;
    const int4* v4 = reinterpret_cast<const int4*>(values);
    const float4* w4 = reinterpret_cast<const float4*>(weights);
    for (int i = tid; i < n4; i += stride) {
        const int4 k = v4[i];
        const float4 w = w4[i];
        atomicAdd(&local[k.x], w.x);
        atomicAdd(&local[k.y], w.y);
        atomicAdd(&local[k.z], w.z);
        atomicAdd(&local[k.w], w.w);
    }
    for (int i = n4 * 4 + tid; i < n; i += stride) atomicAdd(&local[values[i]], weights[i]);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += THREADS)
        if (local[b] != 0.0f) atomicAdd(&out[b], local[b]);
}

extern "C" void launch_bincount_weighted(const int* values, const float* weights, float* out, int n, cudaStream_t stream)
{
    bincount_weighted<<<NUM_SMS * 4, THREADS, 0, stream>>>(values, weights, out, n);
}
