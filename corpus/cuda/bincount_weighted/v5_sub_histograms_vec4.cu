// Weighted bincount: 4 shared sub-histograms per block (by warp) combined with int4 / float4
// loads in the grid-stride loop, scalar tail for n % 4, copies summed and merged once per block.
#include <cuda_runtime.h>

#define THREADS 512
#define BINS    1024
#define COPIES  4
#define NUM_SMS 132

// kforecast: n = 1 << 24; values: i32[n] randint(0,1024); weights: f32[n] rand; out: f32[1024] zeros; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(THREADS)
bincount_weighted(const int* __restrict__ values, const float* __restrict__ weights, float* __restrict__ out, int n)
{
    __shared__ float sub[COPIES][BINS];
    for (int e = threadIdx.x; e < COPIES * BINS; e += THREADS) (&sub[0][0])[e] = 0.0f;
    __syncthreads();
    float* mine = sub[(threadIdx.x >> 5) % COPIES];
    const int tid = blockIdx.x * THREADS + threadIdx.x;
    const int stride = gridDim.x * THREADS;
    const int n4 = n >> 2;
    const int4* v4 = reinterpret_cast<const int4*>(values);
    const float4* w4 = reinterpret_cast<const float4*>(weights);
    for (int i = tid; i < n4; i += stride) {
        const int4 k = v4[i];
        const float4 w = w4[i];
        atomicAdd(&mine[k.x], w.x);
        atomicAdd(&mine[k.y], w.y);
        atomicAdd(&mine[k.z], w.z);
        atomicAdd(&mine[k.w], w.w);
    }
    for (int i = n4 * 4 + tid; i < n; i += stride) atomicAdd(&mine[values[i]], weights[i]);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += THREADS) {
        float total = 0.0f;
#pragma unroll
        for (int c = 0; c < COPIES; ++c) total += sub[c][b];
        if (total != 0.0f) atomicAdd(&out[b], total);
    }
}

extern "C" void launch_bincount_weighted(const int* values, const float* weights, float* out, int n, cudaStream_t stream)
{
    bincount_weighted<<<NUM_SMS * 4, THREADS, 0, stream>>>(values, weights, out, n);
}
