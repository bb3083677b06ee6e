// Sum into out[0]: one element per thread, warp shuffles, per-warp partials in
// shared memory, the first warp reduces them, one atomic per block.
#include <cuda_runtime.h>

#define THREADS   256
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_reduce_sum(float v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

// kforecast: n = 1 << 22; in: f32[n] rand; out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float warp_sums[THREADS / WARP_SIZE];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    float v = (i < n) ? in[i] : 0.0f;
    v = warp_reduce_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f;
        v = warp_reduce_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

extern "C" void launch_reduce_sum(const float* in, float* out, int n, cudaStream_t stream)
{
    int blocks = (n + THREADS - 1) / THREADS;
    reduce_sum<<<blocks, THREADS, 0, stream>>>(in, out, n);
}
