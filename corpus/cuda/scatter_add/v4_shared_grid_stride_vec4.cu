// out[idx[i]] += val[i]: shared-memory bins over a grid-stride loop with int4 / float4
// loads (4 elements per thread per step), scalar tail for n % 4, one flush per block.
#include <cuda_runtime.h>

#define THREADS  1024
#define MAX_BINS 4096
#define NUM_SMS  132

// kforecast: n = 1 << 22; bins = 4096; idx: i32[n] randint(0,4096); val: f32[n] randn; out: f32[bins] zeros; rtol = 1e-3; atol = 2e-3
__global__ void __launch_bounds__(THREADS)
scatter_add(const int* __restrict__ idx, const float* __restrict__ val, float* __restrict__ out, int n, int bins)
{
    __shared__ float local[MAX_BINS];
    for (int b = threadIdx.x; b < bins; b += THREADS) local[b] = 0.0f;
    __syncthreads();
    const int tid = blockIdx.x * THREADS + threadIdx.x;
    const int stride = gridDim.x * THREADS;
    const int n4 = n >> 2;
    const int4* idx4 = reinterpret_cast<const int4*>(idx);
    const float4* val4 = reinterpret_cast<const float4*>(val);
    for (int i = tid; i < n4; i += stride) {
        const int4 k = idx4[i];
        const float4 v = val4[i];
        atomicAdd(&local[k.x], v.x);
        atomicAdd(&local[k.y], v.y);
        atomicAdd(&local[k.z], v.z);
        atomicAdd(&local[k.w], v.w);
    }
    for (int i = n4 * 4 + tid; i < n; i += stride) atomicAdd(&local[idx[i]], val[i]);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += THREADS)
        if (local[b] != 0.0f) atomicAdd(&out[b], local[b]);
}

extern "C" void launch_scatter_add(const int* idx, const float* val, float* out, int n, int bins, cudaStream_t stream)
{
    scatter_add<<<NUM_SMS * 2, THREADS, 0, stream>>>(idx, val, out, n, bins);
}
