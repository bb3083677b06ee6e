// Sum into out[0]: grid-stride accumulation in registers over a fixed grid
// (4 blocks of 256 per SM), then warp shuffles and one atomic per block.
#include <cuda_runtime.h>

#define THREADS   256
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
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float warp_sums[BLOCK / WARP_SIZE];
    float acc = 0.0f;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        acc += in[i];
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    acc = warp_reduce_sum(acc);
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < BLOCK / WARP_SIZE ? warp_sums[lane] : 0.0f;
        acc = warp_reduce_sum(acc);
        if (lane == 0) atomicAdd(out, acc);
    }
}

extern "C" void launch_reduce_sum(const float* in, float* out, int n, cudaStream_t stream)
{
    const int blocks = NUM_SMS * 4;
    reduce_sum<THREADS><<<blocks, THREADS, 0, stream>>>(in, out, n);
}
