// Dot product: each block reduces BLOCK * ITEMS products in shared memory, and thread 0
// adds the block's sum into the result with one atomicAdd.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "dot: %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
            return (int)err_;                                                   \
        }                                                                       \
    } while (0)

template <int BLOCK, int ITEMS>
__global__ void dot_block_reduce(const float* __restrict__ x, const float* __restrict__ y,
                                 float* __restrict__ out, long long n) {
    __shared__ float partial[BLOCK];
    long long base = (long long)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        long long i = base + (long long)k * BLOCK;
        if (i < n) s += x[i] * y[i];
    }
    partial[threadIdx.x] = s;
    __syncthreads();
#pragma unroll
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

template <int BLOCK, int ITEMS>
static int launch_dot(const float* x, const float* y, float* out, long long n) {
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    if (n <= 0) return 0;
    long long per_block = (long long)BLOCK * ITEMS;
    long long blocks = (n + per_block - 1) / per_block;
    dot_block_reduce<BLOCK, ITEMS><<<(unsigned)blocks, BLOCK>>>(x, y, out, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}

extern "C" int dot(const float* x, const float* y, float* out, long long n) {
    return launch_dot<256, 8>(x, y, out, n);
}
