// Parallel sum in two launches: a fixed grid of 1024 blocks reads the input with a
// grid-stride loop, reduces with warp shuffles, writes one partial per block; a
// single block of 1024 threads adds the partials.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(x)                                                                     \
    do {                                                                                  \
        cudaError_t e = (x);                                                              \
        if (e != cudaSuccess) {                                                           \
            fprintf(stderr, "reduce: %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            return (int)e;                                                                \
        }                                                                                 \
    } while (0)

constexpr int kBlocks = 1024;
constexpr int kThreads = 256;

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__device__ float block_sum(float v)
{
    __shared__ float warp_part[32];
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) warp_part[wid] = v;
    __syncthreads();
    v = (threadIdx.x < (blockDim.x >> 5)) ? warp_part[lane] : 0.f;
    if (wid == 0) v = warp_sum(v);
    return v;
}

__global__ void block_sum_shfl(const float* __restrict__ x, float* __restrict__ partial, long long n)
{
    float s = 0.f;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        s += x[i];
    s = block_sum(s);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

__global__ void final_sum_shfl(const float* __restrict__ partial, float* __restrict__ out, int count)
{
    float s = 0.f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) s += partial[i];
    s = block_sum(s);
    if (threadIdx.x == 0) *out = s;
}

static float* d_partial = nullptr;

extern "C" int reduce_sum_f32(const float* x, float* out, long long n)
{
    if (!d_partial) CUDA_CHECK(cudaMalloc(&d_partial, kBlocks * sizeof(float)));
    block_sum_shfl<<<kBlocks, kThreads>>>(x, d_partial, n);
    CUDA_CHECK(cudaGetLastError());
    final_sum_shfl<<<1, 1024>>>(d_partial, out, kBlocks);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
