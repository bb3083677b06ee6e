// out[idx[i]] += val[i]: the int4 / float4 grid-stride shared-bin kernel with renamed
// variables, the loads reordered and the tail folded into one loop bound: a near-tie.
#include <cuda_runtime.h>

#define THREADS  1024
#define MAX_BINS 4096
#define NUM_SMS  132

// kforecast: n = 1 << 22; bins = 4096; idx: i32[n] randint(0,4096); val: f32[n] randn; out: f32[bins] zeros; rtol = 1e-3; atol = 2e-3
__global__ void __launch_bounds__(THREADS)
scatter_add(const int* __restrict__ idx, const float* __restrict__ val, float* __restrict__ out, int n, int bins)
{
    __shared__ float acc[MAX_BINS];
    for (int k = threadIdx.x; k < bins; k += THREADS) acc[k] = 0.0f;
    __syncthreads();
    const int step = gridDim.x * THREADS;
    const int first = blockIdx.x * THREADS + threadIdx.x;
    const int quads = n / 4;
    for (int q = first; q < quads; q += step) {
        const float4 w = reinterpret_cast<const float4*>(val)[q];
        const int4 key = reinterpret_cast<const int4*>(idx)[q];
        atomicAdd(acc + key.x, w.x);
        atomicAdd(acc + key.y, w.y);
        atomicAdd(acc + key.z, w.z);
        atomicAdd(acc + key.w, w.w);
    }
    const int tail = quads * 4 + first;
    if (tail < n) atomicAdd(acc + idx[tail], val[tail]);
    __syncthreads();
    for (int k = threadIdx.x; k < bins; k += THREADS) {
        const float s = acc[k];
        if (s != 0.0f) atomicAdd(out + k, s);
    }
}

extern "C" void launch_scatter_add(const int* idx, const float* val, float* out, int n, int bins, cudaStream_t stream)
{
    scatter_add<<<NUM_SMS * 2, THREADS, 0, stream>>>(idx, val, out, n, bins);
}
