// Sum into out[0]: float4 loads in a grid-stride loop (two accumulators for ILP),
// scalar tail, warp shuffles, one atomic per block; 512 threads, 2 blocks per SM.
#include <cuda_runtime.h>

#define THREADS   512
#define NUM_SMS   132
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_reduce_sum(float v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    return v;
}

// kforecast: n = 1 << 22; in: f32[n] rand; out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void __launch_bounds__(THREADS)
reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float warp_sums[THREADS / WARP_SIZE];
    const int n4 = n / 4;
    const float4* in4 = reinterpret_cast<const float4*>(in);
    const int tid = blockIdx.x * THREADS + threadIdx.x;
    const int stride = gridDim.x * THREADS;
    float a0 = 0.0f, a1 = 0.0f;
    for (int i = tid; i < n4; i += stride) {
        const float4 v = in4[i];
        a0 += v.x + v.y;
        a1 += v.z + v.w;
    }
    for (int i = n4 * 4 + tid; i < n; i += stride) a0 += in[i];
    float acc = warp_reduce_sum(a0 + a1);
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = warp_reduce_sum(lane < THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f);
        if (lane == 0) atomicAdd(out, acc);
    }
}

extern "C" void launch_reduce_sum(const float* in, float* out, int n, cudaStream_t stream)
{
    const int blocks = NUM_SMS * 2;
    reduce_sum<<<blocks, THREADS, 0, stream>>>(in, out, n);
}
